import Foundation

/// Writes a CSV file row by row through a buffer (``BufferedFileWriter``), so a large table never sits in memory: RFC 4180, comma-separated,
/// CRLF line ends, UTF-8 without a byte-order mark (pandas and R would read one into the first column's name); a
/// field is quoted when it holds a comma, a quote, a carriage return or a line feed, and its quotes are doubled.
///
/// Fields are checked byte by byte over UTF-8, not by `Character`: a comma followed by a combining accent is one
/// `Character`, which `String.contains(",")` does not find, so a writer that tests characters (CSV.swift's
/// `CSVWriter` does) leaves it unquoted and every reader splits the participant's text in two. The four ASCII
/// characters never occur inside a multi-byte UTF-8 sequence, so testing bytes finds exactly them.
///
/// Every CSV file of every export is written here, so this is the one place where a ``CSVCellStyle`` is applied: with
/// ``CSVCellStyle/forSpreadsheets`` each cell (the header's too) goes through ``CSVCellStyle/written(_:)`` before it
/// is quoted.
final class CSVFileWriter {
    /// The file's path, for errors.
    var path: String { file.path }
    /// The data rows written so far (the header not counted).
    private(set) var rowCount = 0
    /// How each cell is written.
    let cells: CSVCellStyle
    private let file: BufferedFileWriter

    /// Creates the file at `url` (which must not exist) and writes the header row; every cell is written in the
    /// style `cells`.
    init(creating url: URL, header: [String], cells: CSVCellStyle) throws {
        file = try BufferedFileWriter(creating: url)
        self.cells = cells
        try append(header)
    }

    /// Writes one data row.
    func write(_ fields: [String]) throws {
        try append(fields)
        rowCount += 1
    }

    /// Writes what is buffered and closes the file.
    func close() throws {
        try file.close()
    }

    private func append(_ fields: [String]) throws {
        for (index, field) in fields.enumerated() {
            if index > 0 { file.append(UInt8(ascii: ",")) }
            let bytes = cells.written(field).utf8
            if bytes.contains(where: Self.needsQuotes) {
                file.append(UInt8(ascii: "\""))
                for byte in bytes {
                    file.append(byte)
                    if byte == UInt8(ascii: "\"") { file.append(byte) }
                }
                file.append(UInt8(ascii: "\""))
            } else {
                try file.append(contentsOf: bytes)
            }
        }
        try file.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
    }

    private static func needsQuotes(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}
