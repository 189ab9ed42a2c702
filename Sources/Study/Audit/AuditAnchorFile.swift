import Consent
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An audit trail's anchor file (an ``AuditAnchor``) as a database that knows the end of its chain after each commit
/// keeps it: ``record(sequence:hash:)`` signs and writes the anchor of a committed row, replacing the file whole (a
/// temporary file renamed into place), never with an anchor older than one this process wrote. Several processes on
/// one host may share the file (several servers over one PostgreSQL database): one that finished last may leave an
/// anchor naming an earlier row than another wrote, and an anchor proves the trail up to its row, never less.
///
/// ```swift
/// let anchor = try AuditAnchorFile.open(url: anchorURL, signingKey: key, now: { Date() })
/// try anchor.record(sequence: 834, hash: "9f86…")
/// ```
///
/// An anchor that cannot be written (a full disk) is kept and written before the next one (``writePending()``), which
/// throws the reason when it still cannot be.
public final class AuditAnchorFile: Sendable {
    /// The anchor file.
    public let url: URL
    private let signingKey: ConsentSigningKey
    private let keyedFromSequence: Int64
    private let now: @Sendable () -> Date
    private let state: Mutex<(written: Int64, failed: (sequence: Int64, hash: String)?)>
    /// One write of the file at a time, so that an older anchor never replaces a newer one.
    private let writing = Mutex(())

    /// The anchor file at `url`, whose rows from `keyedFromSequence` on are keyed, last written for row `written`.
    public init(url: URL, signingKey: ConsentSigningKey, keyedFromSequence: Int64, written: Int64, now: @escaping @Sendable () -> Date) {
        self.url = url
        self.signingKey = signingKey
        self.keyedFromSequence = keyedFromSequence
        self.now = now
        state = Mutex((written, nil))
    }

    /// The row this process last anchored.
    public var writtenSequence: Int64 { state.withLock { $0.written } }

    /// Signs and writes the anchor of the committed row `sequence` with `hash`, unless this process anchored that row
    /// or a later one already. An anchor that cannot be written is kept for ``writePending()`` and the error thrown.
    public func record(sequence: Int64, hash: String) throws {
        do {
            try store((sequence, hash))
        } catch {
            state.withLock { if $0.failed.map({ $0.sequence < sequence }) ?? true { $0.failed = (sequence, hash) } }
            throw error
        }
    }

    /// Writes an anchor that failed before; throws when it still cannot be written.
    public func writePending() throws {
        guard let failed = state.withLock({ $0.failed }) else { return }
        try store(failed)
    }

    private func store(_ head: (sequence: Int64, hash: String)) throws {
        try writing.withLock { _ in
            guard head.sequence > state.withLock({ $0.written }) else { return }
            let anchor = try AuditAnchor.signed(sequence: head.sequence, hash: head.hash, keyedFromSequence: keyedFromSequence, at: now(), key: signingKey)
            try Self.replace(url, with: try anchor.jsonData())
            state.withLock { state in
                state.written = max(state.written, head.sequence)
                if let failed = state.failed, failed.sequence <= head.sequence { state.failed = nil }
            }
        }
    }

    /// The anchor in the file at `url`; nil when there is no such file. Throws ``AuditAnchorFileError/refused(path:problem:)``
    /// for a file that is not an anchor.
    public static func read(at url: URL) throws -> AuditAnchor? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try AuditAnchor(jsonData: try Data(contentsOf: url))
        } catch {
            throw AuditAnchorFileError.refused(path: url.path, problem: "\(error)")
        }
    }

    /// Replaces the file at `url` with `data`: written to a temporary file beside it (owner-only), then renamed; with
    /// `sync`, flushed to the disk before the rename.
    public static func replace(_ url: URL, with data: Data, sync: Bool = false) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw AuditAnchorFileError.cannotWrite(path: url.path, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = !sync || fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw AuditAnchorFileError.cannotWrite(path: url.path, reason: reason)
        }
    }
}

/// Why an audit trail's anchor file cannot be used.
public enum AuditAnchorFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The anchor file cannot be written.
    case cannotWrite(path: String, reason: String)
    /// The anchor file is missing, and the trail was anchored before.
    case missing(path: String)
    /// The anchor is not the server's, or the trail does not reach it.
    case refused(path: String, problem: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "the audit trail's anchor \(path) cannot be written: \(reason)"
        case .missing(let path):
            "the audit trail's anchor \(path) is missing, and the trail was anchored before: it may have been cut or rewritten. "
                + "Restore the anchor from a backup, then run studykit audit verify"
        case .refused(let path, let problem):
            "the audit trail's anchor \(path) does not hold: \(problem). Run studykit audit verify for the first row that does not"
        }
    }
}
