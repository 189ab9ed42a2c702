import NIOCore

/// The message content as SMTP's DATA sends it (RFC 5321 §4.5.2): a `.` doubled at the start of each line, so that
/// no line of the message reads as the end of the data, then the terminating `.` line.
enum DotStuffing {
    /// `message` (CRLF line ends) dot-stuffed, ended by CRLF (added if the message lacks it) and `.` CRLF.
    static func encode(_ message: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(message.count + message.count / 64 + 5)
        var atLineStart = true
        for byte in message {
            if atLineStart && byte == UInt8(ascii: ".") { buffer.writeInteger(UInt8(ascii: ".")) }
            buffer.writeInteger(byte)
            atLineStart = byte == UInt8(ascii: "\n")
        }
        if !atLineStart { buffer.writeString("\r\n") }
        buffer.writeString(".\r\n")
        return buffer
    }
}
