import Foundation

/// One header field as it is written: `Name: value` folded (RFC 5322 §2.2.3) into lines of at most 76 characters
/// wherever the value has whitespace to fold at, non-ASCII text as RFC 2047 encoded-words.
struct HeaderField {
    /// The longest line the folding aims at (RFC 5322 asks for 78 at most).
    static let foldedLineLength = 76
    /// The longest an encoded-word may be (RFC 2047 §2).
    static let maximumEncodedWordLength = 75

    private var finishedLines: [String] = []
    private var currentLine: String
    private var hasValue = false

    /// A field named `name`, with no value yet.
    init(name: String) { currentLine = name + ":" }

    /// The field's lines, each ended by CRLF.
    var text: String { (finishedLines + [currentLine]).map { $0 + "\r\n" }.joined() }

    /// The length of the field's longest line, without its CRLF.
    var longestLineLength: Int { (finishedLines + [currentLine]).map(\.utf8.count).max() ?? 0 }

    /// Appends a piece of the value that starts with whitespace, folding before it if it does not fit on the line.
    /// (The field's first piece stays on the name's line whatever its length.)
    mutating func append(_ piece: String) {
        if hasValue && currentLine.utf8.count + piece.utf8.count > Self.foldedLineLength {
            finishedLines.append(currentLine)
            currentLine = piece
        } else {
            currentLine += piece
        }
        hasValue = true
    }

    /// Appends `value` (printable ASCII, spaces and tabs) after a space, foldable at each run of whitespace.
    mutating func appendUnstructured(_ value: String) {
        var piece = " "
        var previousWasWhitespace = true
        for character in value {
            let isWhitespace = character == " " || character == "\t"
            if isWhitespace && !previousWasWhitespace {
                append(piece)
                piece = ""
            }
            piece.append(character)
            previousWasWhitespace = isWhitespace
        }
        append(piece)
    }

    /// Appends `text` as a run of encoded-words (`=?utf-8?B?…?=`, RFC 2047), each sized to the room left on its line
    /// and holding whole characters, so that no word splits a UTF-8 sequence. Decoders join adjacent encoded-words,
    /// dropping the folding whitespace between them, so `text` (spaces included) comes back unchanged.
    mutating func appendEncodedWords(_ text: String) {
        // "=?utf-8?B?" and "?=": a word of up to four encoded bytes, one scalar, needs 20 characters.
        let wrapperLength = 12, smallestWord = 20
        var remaining = Substring(text)
        while !remaining.isEmpty {
            var room = min(Self.maximumEncodedWordLength, Self.foldedLineLength - currentLine.utf8.count - 1)
            if hasValue && room < smallestWord {
                finishedLines.append(currentLine)
                currentLine = ""
                room = Self.maximumEncodedWordLength
            }
            // Base64 turns each 3 bytes into 4 characters.
            let byteBudget = max(1, (room - wrapperLength) / 4) * 3
            let taken = Self.prefix(of: remaining, withinUTF8Bytes: byteBudget)
            remaining = remaining[taken.endIndex...]
            currentLine += " =?utf-8?B?" + Data(taken.utf8).base64EncodedString() + "?="
            hasValue = true
        }
    }

    /// The longest prefix of `text` of whole characters within `budget` UTF-8 bytes; if not even its first character
    /// fits (a long cluster of combining marks), the longest prefix of whole scalars, at least one.
    private static func prefix(of text: Substring, withinUTF8Bytes budget: Int) -> Substring {
        var bytes = 0
        var end = text.startIndex
        for character in text {
            let length = character.utf8.count
            guard bytes + length <= budget else { break }
            bytes += length
            end = text.index(after: end)
        }
        if end > text.startIndex { return text[..<end] }
        var scalarEnd = text.unicodeScalars.startIndex
        bytes = 0
        for scalar in text.unicodeScalars {
            let length = UTF8.width(scalar)
            guard bytes + length <= budget || scalarEnd == text.unicodeScalars.startIndex else { break }
            bytes += length
            scalarEnd = text.unicodeScalars.index(after: scalarEnd)
        }
        return text[..<scalarEnd]
    }
}
