/// A server's reply to a command: a three-digit code and one or more lines of text (RFC 5321 §4.2).
public struct SMTPReply: Hashable, Sendable, CustomStringConvertible {
    /// The reply code: 2xx done, 3xx go on, 4xx failed for now, 5xx failed for good.
    public let code: Int
    /// The text of each line, without the code and the `-` or space after it.
    public let lines: [String]

    /// A reply with `code` and the text of its `lines`.
    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// The lines' text joined by line feeds.
    public var text: String { lines.joined(separator: "\n") }

    /// The reply as the server wrote it, one line per line: `250-first`, `250 last`.
    public var description: String {
        lines.enumerated().map { index, line in "\(code)\(index == lines.count - 1 ? " " : "-")\(line)" }
            .joined(separator: "\n")
    }
}
