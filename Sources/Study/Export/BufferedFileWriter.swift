import Foundation

/// A new file written through a 64 KB buffer: what the table and line exports write their rows with, so that a
/// large export never sits in memory and never makes a system call per row.
final class BufferedFileWriter {
    /// The file's path, for errors.
    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 16

    /// Creates the file at `url`, which must not exist.
    init(creating url: URL) throws {
        path = url.path
        guard !FileManager.default.fileExists(atPath: url.path), FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw StudyExportError.cannotWrite(path: url.path, reason: "the file exists or cannot be created")
        }
        do {
            handle = try FileHandle(forWritingTo: url)
        } catch {
            throw StudyExportError.cannotWrite(path: url.path, reason: error.localizedDescription)
        }
        buffer.reserveCapacity(Self.flushSize + 4_096)
    }

    /// Appends one byte.
    func append(_ byte: UInt8) { buffer.append(byte) }

    /// Appends bytes; writes the buffer out once it is full.
    func append(contentsOf bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes what is buffered and closes the file.
    func close() throws {
        try flush()
        do { try handle.close() } catch { throw StudyExportError.cannotWrite(path: path, reason: error.localizedDescription) }
    }

    /// Writes what is buffered.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw StudyExportError.cannotWrite(path: path, reason: error.localizedDescription)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
