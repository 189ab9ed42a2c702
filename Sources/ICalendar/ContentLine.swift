import Foundation

/// One content line of RFC 5545 (§3.1): `NAME;PARAM=value:value`, written folded with CRLF line ends.
///
/// Nothing given to a line can end it early: the value and the parameters lose every control character (and every
/// bidirectional embedding, override or isolate) before they are written, so a CR or LF smuggled into a value never
/// starts a property of its own. ``text(_:)`` is how a `TEXT` value is made first, keeping its line breaks as `\n`.
struct ContentLine {
    /// A property parameter, `NAME=value`.
    struct Parameter {
        /// The parameter's name (`TZID`, `VALUE`).
        var name: String
        /// Its value, quoted when written if it holds `:`, `;` or `,`.
        var value: String
    }

    /// The property's name (`DTSTART`).
    var name: String
    /// Its parameters, in order.
    var parameters: [Parameter] = []
    /// Its value, already in its type's form (``text(_:)`` for `TEXT`).
    var value: String

    /// The longest line, in octets of UTF-8 without the CRLF (RFC 5545 §3.1).
    static let maximumOctets = 75

    /// The line, folded into lines of at most 75 octets each (continuation lines begin with one space, which counts),
    /// never inside a UTF-8 character, each ended by CRLF.
    func folded() -> String {
        var line = name
        for parameter in parameters {
            line += ";" + parameter.name + "=" + Self.parameterValue(parameter.value)
        }
        line += ":" + Self.withoutControls(value)
        return Self.fold(line)
    }

    /// `line` folded at 75 octets without splitting a character's UTF-8 bytes, with CRLF after each piece.
    static func fold(_ line: String) -> String {
        var folded = String.UnicodeScalarView()
        var octets = 0
        for scalar in line.unicodeScalars {
            let width = UTF8.width(scalar)
            if octets + width > maximumOctets {
                folded.append(contentsOf: "\r\n ".unicodeScalars)
                octets = 1
            }
            folded.append(scalar)
            octets += width
        }
        folded.append(contentsOf: "\r\n".unicodeScalars)
        return String(folded)
    }

    /// `text` as an RFC 5545 `TEXT` value (§3.3.11): backslash, semicolon and comma escaped, each line break (CRLF, CR,
    /// LF, NEL, U+2028, U+2029) written `\n`, a tab as a space, and every other control character and bidirectional
    /// embedding, override or isolate removed.
    static func text(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n" where previousWasCarriageReturn:
                continue
            case "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}":
                escaped.append(contentsOf: "\\n".unicodeScalars)
            case "\\", ";", ",":
                escaped.append("\\")
                escaped.append(scalar)
            case "\t":
                escaped.append(" ")
            default:
                if !isRemoved(scalar) { escaped.append(scalar) }
            }
        }
        return String(escaped)
    }

    /// `value` without control characters and bidirectional embeddings, overrides and isolates.
    static func withoutControls(_ value: String) -> String {
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: value.unicodeScalars.filter { !isRemoved($0) })
        return String(kept)
    }

    /// A parameter's value: without controls or double quotes (which it cannot hold), quoted when it holds `:`, `;` or
    /// `,` (§3.2).
    static func parameterValue(_ value: String) -> String {
        let cleaned = withoutControls(value).replacingOccurrences(of: "\"", with: "")
        return cleaned.contains(where: { ":;,".contains($0) }) ? "\"" + cleaned + "\"" : cleaned
    }

    /// Whether `scalar` is never written: a control character (C0, DEL, C1) or a bidirectional embedding, override or
    /// isolate (U+202A–U+202E, U+2066–U+2069), which could make the text shown differ from the text read.
    static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
