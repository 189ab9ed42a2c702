import NIOCore

/// Reads replies out of the bytes a server sends: lines ended by CRLF (a bare LF is tolerated), each `ddd text` or,
/// for all but the last line of a reply, `ddd-text`, all with the same code (RFC 5321 §4.2.1).
struct SMTPReplyParser {
    /// The longest reply line read (RFC 5321 allows 512 characters; some servers write more).
    static let maximumLineLength = 4096
    /// The most lines one reply may have.
    static let maximumLineCount = 512

    /// Why the bytes are not an SMTP reply.
    struct MalformedReply: Error, CustomStringConvertible {
        let description: String
    }

    private var pendingCode: Int?
    private var pendingLines: [String] = []

    /// Whether part of a reply (some of its lines) has been read but not the whole.
    var hasPartialReply: Bool { pendingCode != nil }

    /// The next complete reply in `buffer`, whose lines it consumes; `nil` when `buffer` holds no whole reply yet (its
    /// complete lines are kept and its incomplete last line left in `buffer`).
    mutating func nextReply(from buffer: inout ByteBuffer) throws(MalformedReply) -> SMTPReply? {
        while true {
            let view = buffer.readableBytesView
            guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
                guard buffer.readableBytes <= Self.maximumLineLength else {
                    throw MalformedReply(description: "a reply line longer than \(Self.maximumLineLength) bytes")
                }
                return nil
            }
            var line = Array(view[view.startIndex..<newline])
            buffer.moveReaderIndex(forwardBy: newline - view.startIndex + 1)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if let reply = try take(line) { return reply }
        }
    }

    private mutating func take(_ line: [UInt8]) throws(MalformedReply) -> SMTPReply? {
        let digits = line.prefix(3)
        guard digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let code = Int(String(decoding: digits, as: UTF8.self)), (200...599).contains(code)
        else {
            throw MalformedReply(description: "a reply line that does not start with a reply code: \(Self.shown(line))")
        }
        let separator = line.count > 3 ? line[3] : UInt8(ascii: " ")
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else {
            throw MalformedReply(description: "a reply code not followed by a space or a hyphen: \(Self.shown(line))")
        }
        if let pendingCode, pendingCode != code {
            throw MalformedReply(description: "a multiline reply whose lines have different codes (\(pendingCode), \(code))")
        }
        pendingCode = code
        pendingLines.append(String(decoding: line.dropFirst(4), as: UTF8.self))
        guard separator == UInt8(ascii: " ") else {
            guard pendingLines.count < Self.maximumLineCount else {
                throw MalformedReply(description: "a reply of more than \(Self.maximumLineCount) lines")
            }
            return nil
        }
        defer {
            self.pendingCode = nil
            pendingLines = []
        }
        return SMTPReply(code: code, lines: pendingLines)
    }

    /// The start of a line, for an error message.
    private static func shown(_ line: [UInt8]) -> String {
        "\"" + String(decoding: line.prefix(60), as: UTF8.self) + (line.count > 60 ? "…" : "") + "\""
    }
}
