import Consent
import Foundation
import GRDB
import Study
import Synchronization

/// The audit trail's anchor outside the database (`DATA/study.audit-anchor.json`, an ``AuditAnchor``): rewritten,
/// signed with the server's key, after the commits that append to the trail. With an ``interval`` of zero (commands,
/// tests) every commit is anchored before its write returns. The server uses 100 ms: a commit after a quiet spell
/// (none anchored in the last interval) is anchored before its write returns, and the commits of a burst are anchored
/// together, at most one interval after the first of them, so the file is written at most ten times a second however
/// many writes the server acknowledges; the rows of the last interval may be unanchored for that long.
///
/// The file is replaced whole (a temporary file renamed into place) and not synced: a power loss may leave the
/// previous anchor, which still holds (it names an earlier row). An anchor that cannot be written (a full disk) is
/// written again before the next write, which fails with the reason if it still cannot be. Two processes writing
/// the same file (a command while the server runs) may leave the anchor of the one that finished last, which may
/// name an earlier row than the other wrote: an anchor proves the trail up to its row, never less. What is pending
/// when the database is closed is written then.
final class SQLiteAuditAnchorFile: Sendable {
    /// The least time between two writes of the file.
    let interval: Duration
    /// The file, signed and replaced whole, never with an anchor older than one this process wrote.
    private let file: AuditAnchorFile
    /// The anchor file.
    var url: URL { file.url }
    /// The database file whose trail it anchors.
    let database: URL
    /// The end of the chain as committed, read afresh (for a burst's anchor, written after its commits).
    private let readHead: @Sendable () throws -> (sequence: Int64, hash: String)
    private let state = Mutex(Schedule())

    /// When the file was last written (monotonic), and whether commits since wait for the write scheduled then.
    private struct Schedule {
        var lastWrite: ContinuousClock.Instant?
        var scheduled = false
    }

    init(url: URL, database: URL, signingKey: ConsentSigningKey, keyedFromSequence: Int64, written: Int64, interval: Duration,
         now: @escaping @Sendable () -> Date, readHead: @escaping @Sendable () throws -> (sequence: Int64, hash: String)) {
        self.interval = interval
        file = AuditAnchorFile(url: url, signingKey: signingKey, keyedFromSequence: keyedFromSequence, written: written, now: now)
        self.database = database
        self.readHead = readHead
    }

    deinit { flush() }

    /// Anchors the end of the trail as `db`'s transaction leaves it: once that transaction commits (at once when `db`
    /// is not in a transaction, whose work is committed already); or, within ``interval`` of the last anchor, with the
    /// write scheduled at its end, which reads the end of the chain as then committed.
    func anchor(after db: Database) throws {
        let clock = ContinuousClock()
        let waits = state.withLock { state -> Bool in
            guard let last = state.lastWrite, clock.now - last < interval else { return false }
            if !state.scheduled {
                state.scheduled = true
                let wait = interval - (clock.now - last)
                let nanoseconds = max(0, Int(wait.components.seconds) * 1_000_000_000 + Int(wait.components.attoseconds / 1_000_000_000))
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in self?.flush() }
            }
            return true
        }
        if waits { return }
        let head = try SQLiteAuditTrail.head(db)
        guard head.sequence > file.writtenSequence else { return }
        guard db.isInsideTransaction else { return record(head) }
        db.afterNextTransaction(onCommit: { _ in self.record(head) })
    }

    /// Writes an anchor that failed before; throws when it still cannot be written.
    func writePending() throws {
        try file.writePending()
    }

    /// Writes the anchor of the chain's end as committed now, when commits wait for it (a burst's last ones, before the
    /// database is closed).
    func flush() {
        let waiting = state.withLock { state -> Bool in
            defer { state.scheduled = false }
            return state.scheduled
        }
        guard waiting, let head = try? readHead() else { return }
        record(head)
    }

    /// Stores an anchor of `head`; one that cannot be stored is kept by the file for the next write (``writePending()``).
    private func record(_ head: (sequence: Int64, hash: String)) {
        guard (try? file.record(sequence: head.sequence, hash: head.hash)) != nil else { return }
        state.withLock { $0.lastWrite = ContinuousClock().now }
    }
}

/// The audit trail's key and anchor of a data folder, set up when its database is opened for writing, and read back
/// to verify the trail.
enum SQLiteAuditKeying {
    /// The key and the anchor file of the database file `database` (created by this open when `isNew`), whose trail
    /// ends at `head`. A database without an anchor, new or written before the trail was keyed, gets its first anchor,
    /// naming `head` with every later row keyed (and the data folder its key, when it has none yet); one with an anchor
    /// but no key yet gets its key when no row was written after that anchor. Any other state (an existing database
    /// without an anchor in a folder whose key exists, rows keyed with a key that is gone, an anchor that is not the
    /// server's or that the trail does not reach) is refused, naming what to check.
    static func open(database: URL, isNew: Bool, head: (sequence: Int64, hash: String), hashOfRow: (Int64) throws -> String?,
                     interval: Duration, now: @escaping @Sendable () -> Date,
                     readHead: @escaping @Sendable () throws -> (sequence: Int64, hash: String)) throws -> (key: AuditKey, anchor: SQLiteAuditAnchorFile) {
        let folder = database.deletingLastPathComponent()
        let keys = ConsentKeyStore(dataDirectory: folder)
        let signingKey = try keys.loadOrCreate()
        let anchorURL = folder.appendingPathComponent(AuditAnchor.fileName(forDatabase: database.lastPathComponent))
        var anchor = try AuditAnchorFile.read(at: anchorURL)
        var rawKey = try keys.loadSecret(named: AuditKey.fileName, byteCount: AuditKey.byteCount)
        switch (anchor, rawKey) {
        case (nil, let existing) where existing == nil || isNew:
            // Anchor first: a crash before the key is stored leaves an anchor with no row after it, which the next open keys.
            let first = try AuditAnchor.signed(sequence: head.sequence, hash: head.hash, keyedFromSequence: head.sequence + 1, at: now(), key: signingKey)
            try AuditAnchorFile.replace(anchorURL, with: try first.jsonData(), sync: true)
            anchor = first
            rawKey = try existing ?? keys.storeSecret(named: AuditKey.fileName, newKey())
        case (let found?, nil):
            guard head.sequence < found.keyedFromSequence else { throw SQLiteAuditAnchorError.keyMissing(path: keys.keysDirectory.appendingPathComponent(AuditKey.fileName).path) }
            rawKey = try keys.storeSecret(named: AuditKey.fileName, newKey())
        case (nil, _):
            throw SQLiteAuditAnchorError.anchorMissing(path: anchorURL.path)
        case (_?, _?):
            break
        }
        guard let anchor, let rawKey else { throw SQLiteAuditAnchorError.anchorMissing(path: anchorURL.path) }
        if let problem = anchor.problem(expecting: signingKey.publicKey) {
            throw SQLiteAuditAnchorError.anchorRefused(path: anchorURL.path, problem: problem)
        }
        if head.sequence < anchor.sequence {
            throw SQLiteAuditAnchorError.anchorRefused(path: anchorURL.path, problem: "it names row \(anchor.sequence), and the trail ends at row "
                + "\(head.sequence): rows were removed from its end")
        }
        if anchor.sequence > 0, let stored = try hashOfRow(anchor.sequence), stored != anchor.hash {
            throw SQLiteAuditAnchorError.anchorRefused(path: anchorURL.path, problem: "it names row \(anchor.sequence) with the hash "
                + "\(anchor.hash.prefix(12))…, and that row's hash is \(stored.prefix(12))…: the trail was rewritten")
        }
        let key = try AuditKey(rawRepresentation: rawKey)
        return (key, SQLiteAuditAnchorFile(url: anchorURL, database: database, signingKey: signingKey, keyedFromSequence: anchor.keyedFromSequence,
                                           written: anchor.sequence, interval: interval, now: now, readHead: readHead))
    }

    /// What `studykit audit verify` checks the trail of the database file `database` with: its data folder's key, its
    /// latest anchor and the public key the anchor must be signed with (the data folder's own by default). Throws
    /// ``SQLiteAuditAnchorError`` when either file is missing or the anchor is not signed by `publicKey`.
    static func verification(database: URL, publicKey: ConsentPublicKey?) throws -> AuditChainCheck {
        let folder = database.deletingLastPathComponent()
        let keys = ConsentKeyStore(dataDirectory: folder)
        let anchorURL = folder.appendingPathComponent(AuditAnchor.fileName(forDatabase: database.lastPathComponent))
        guard let anchor = try AuditAnchorFile.read(at: anchorURL) else { throw SQLiteAuditAnchorError.anchorMissing(path: anchorURL.path) }
        guard let rawKey = try keys.loadSecret(named: AuditKey.fileName, byteCount: AuditKey.byteCount) else {
            throw SQLiteAuditAnchorError.keyMissing(path: keys.keysDirectory.appendingPathComponent(AuditKey.fileName).path)
        }
        guard let expected = try publicKey ?? keys.load()?.publicKey else {
            throw SQLiteAuditAnchorError.anchorRefused(path: anchorURL.path, problem: "there is no signing key in \(keys.keysDirectory.path) to check it with; "
                + "give the server's public key (studykit consent key prints it)")
        }
        if let problem = anchor.problem(expecting: expected) { throw SQLiteAuditAnchorError.anchorRefused(path: anchorURL.path, problem: problem) }
        return AuditChainCheck(key: try AuditKey(rawRepresentation: rawKey), anchor: anchor)
    }

    private static func newKey() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<AuditKey.byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

/// Why the audit trail's anchor or key cannot be used: the trail cannot be shown to be whole.
public enum SQLiteAuditAnchorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The anchor file cannot be written.
    case cannotWrite(path: String, reason: String)
    /// The data folder has the trail's key but no anchor: the anchor was removed.
    case anchorMissing(path: String)
    /// Rows were keyed with a key that is no longer in the data folder.
    case keyMissing(path: String)
    /// The anchor is not the server's, or the trail does not reach it.
    case anchorRefused(path: String, problem: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "the audit trail's anchor \(path) cannot be written: \(reason)"
        case .anchorMissing(let path):
            "the audit trail's anchor \(path) is missing, and the trail was anchored before: it may have been cut or rewritten. "
                + "Restore the anchor from a backup, then run studykit audit verify"
        case .keyMissing(let path):
            "the audit trail's key \(path) is missing, and rows were written with it: restore it from a backup (the trail cannot be "
                + "verified or continued without it)"
        case .anchorRefused(let path, let problem):
            "the audit trail's anchor \(path) does not hold: \(problem). Run studykit audit verify for the first row that does not"
        }
    }
}

extension SQLiteAuditKeying {
    /// Anchors the trail of the database file `database` afresh where it ends now, after checking every row with the
    /// data folder's key: for a study team that restored the database from a backup (older than its anchor) or lost the
    /// anchor, and knows why. Refuses a trail that does not hold row by row (the key would then bless an edit), and a
    /// folder without its key. Returns the anchor replaced (nil when there was none) and the new one; the caller then
    /// records the re-anchoring in the trail itself.
    static func reanchor(database: URL, now: Date) throws -> (previous: AuditAnchor?, anchor: AuditAnchor) {
        let folder = database.deletingLastPathComponent()
        let keys = ConsentKeyStore(dataDirectory: folder)
        guard let rawKey = try keys.loadSecret(named: AuditKey.fileName, byteCount: AuditKey.byteCount) else {
            throw SQLiteAuditAnchorError.keyMissing(path: keys.keysDirectory.appendingPathComponent(AuditKey.fileName).path)
        }
        let key = try AuditKey(rawRepresentation: rawKey)
        guard let signingKey = try keys.load() else {
            throw SQLiteAuditAnchorError.cannotWrite(path: folder.path, reason: "there is no signing key in \(keys.keysDirectory.path)")
        }
        let anchorURL = folder.appendingPathComponent(AuditAnchor.fileName(forDatabase: database.lastPathComponent))
        let previous = try? AuditAnchorFile.read(at: anchorURL)
        // Rows written before the trail was keyed come first: each row is checked keyed, and else unkeyed while no keyed
        // row has been seen; the chain must hold throughout.
        var keyedFrom: Int64?
        var last: (sequence: Int64, hash: String) = (0, "")
        let file = try DatabaseQueue(path: database.path, configuration: SQLiteStudyStorage.configuration(readOnly: true))
        defer { try? file.close() }
        try file.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM auditLog ORDER BY sequence")
            while let row = try rows.next() {
                let entry = SQLiteAuditTrail.entry(row)
                guard entry.sequence == last.sequence + 1, entry.previousHash == last.hash else {
                    throw SQLiteAuditAnchorError.anchorRefused(path: anchorURL.path, problem: "the trail itself does not hold at row \(entry.sequence) "
                        + "(a row removed or out of order): it is not anchored again; run studykit audit verify")
                }
                if AuditTrail.hash(previousHash: entry.previousHash, of: entry.hashedFields, key: key) == entry.hash {
                    keyedFrom = keyedFrom ?? entry.sequence
                } else if keyedFrom != nil || AuditTrail.hash(previousHash: entry.previousHash, of: entry.hashedFields) != entry.hash {
                    throw SQLiteAuditAnchorError.anchorRefused(path: anchorURL.path, problem: "row \(entry.sequence) was not written by StudyKit with "
                        + "this trail's key, or was changed since: it is not anchored again; run studykit audit verify")
                }
                last = (entry.sequence, entry.hash)
            }
        }
        let anchor = try AuditAnchor.signed(sequence: last.sequence, hash: last.hash, keyedFromSequence: keyedFrom ?? last.sequence + 1,
                                            at: now, key: signingKey)
        try AuditAnchorFile.replace(anchorURL, with: try anchor.jsonData(), sync: true)
        return (previous, anchor)
    }
}
