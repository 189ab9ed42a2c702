/// Text written by a study team, as the pages show it: one paragraph per line.
enum Paragraphs {
    /// The lines of `text` with white space trimmed at both ends, blank lines left out; none for nil.
    static func split(_ text: String?) -> [String] {
        // On the scalars, as SitePageBuilder's `nonEmpty` does: a split by characters and Foundation's trimming cost a fortieth of a
        // daily page for one tip. A CR LF leaves an empty line between its halves, dropped like any blank line.
        guard let text else { return [] }
        return text.unicodeScalars.split(whereSeparator: Self.isLineBreak).compactMap { line in
            guard let first = line.firstIndex(where: { !$0.properties.isWhitespace }),
                  let last = line.lastIndex(where: { !$0.properties.isWhitespace }) else { return nil }
            return String(String.UnicodeScalarView(line[first...last]))
        }
    }

    /// The scalars that end a line, as `Character.isNewline` counts them.
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": true
        default: false
        }
    }
}
