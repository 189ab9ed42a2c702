import Foundation

/// Writes a CSV file row by row through a buffer, so a large table never sits in memory: RFC 4180, comma-separated,
/// CRLF line ends, UTF-8 without a byte-order mark (pandas and R would read one into the first column's name); a
/// field is quoted when it holds a comma, a quote, a carriage return or a line feed, and its quotes are doubled.
///
/// Fields are checked byte by byte over UTF-8, not by `Character`: a comma followed by a combining accent is one
/// `Character`, which `String.contains(",")` does not find, so a writer that tests characters (CSV.swift's
/// `CSVWriter` does) leaves it unquoted and every reader splits the participant's text in two. The four ASCII
/// characters never occur inside a multi-byte UTF-8 sequence, so testing bytes finds exactly them.
final class CSVFileWriter {
    /// The file's path, for errors.
    let path: String
    /// The data rows written so far (the header not counted).
    private(set) var rowCount = 0
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 16

    /// Creates the file at `url` (which must not exist) and writes the header row.
    init(creating url: URL, header: [String]) throws {
        path = url.path
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw StudyExportError.cannotWrite(path: url.path, reason: "the file cannot be created")
        }
        do {
            handle = try FileHandle(forWritingTo: url)
        } catch {
            throw StudyExportError.cannotWrite(path: url.path, reason: error.localizedDescription)
        }
        buffer.reserveCapacity(Self.flushSize + 4_096)
        append(header)
    }

    /// Writes one data row.
    func write(_ fields: [String]) throws {
        append(fields)
        rowCount += 1
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes what is buffered and closes the file.
    func close() throws {
        try flush()
        do { try handle.close() } catch { throw StudyExportError.cannotWrite(path: path, reason: error.localizedDescription) }
    }

    private func append(_ fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            let bytes = field.utf8
            if bytes.contains(where: Self.needsQuotes) {
                buffer.append(UInt8(ascii: "\""))
                for byte in bytes {
                    buffer.append(byte)
                    if byte == UInt8(ascii: "\"") { buffer.append(byte) }
                }
                buffer.append(UInt8(ascii: "\""))
            } else {
                buffer.append(contentsOf: bytes)
            }
        }
        buffer.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
    }

    private static func needsQuotes(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw StudyExportError.cannotWrite(path: path, reason: error.localizedDescription)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
