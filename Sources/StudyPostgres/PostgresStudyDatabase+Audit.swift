import CareStorePostgres
import Consent
import Foundation
import Logging
import PostgresNIO
import Study
import StudyKitEnvironment

extension PostgresStudyDatabase {
    /// The participant's rows, newest first, at most `limit`.
    public func auditEntries(participantID: String, limit: Int) async throws -> [AuditEntry] {
        let schema = schema, logger = PostgresStudyStorage.silentLogger
        return try await PostgresTransactionRunner.readOnly(client, logger: logger) { connection in
            var binds = PostgresBindings()
            binds.append(participantID)
            binds.append(Int64(limit))
            return try await (try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT \(PostgresAuditTrail.columns) FROM \(schema.name).auditLog WHERE participantID = $1 ORDER BY sequence DESC LIMIT $2
                """, binds: binds), logger: logger)).decode(PostgresAuditTrail.Row.self).collected().map(PostgresAuditTrail.entry)
        }
    }

    /// Every row in order, read a page of 1000 at a time.
    public func forEachAuditEntry(_ body: (AuditEntry) throws -> Bool) async throws {
        let schema = schema, logger = PostgresStudyStorage.silentLogger
        var last: Int64 = 0
        while true {
            let after = last
            let page = try await PostgresTransactionRunner.readOnly(client, logger: logger) { connection in
                var binds = PostgresBindings()
                binds.append(after)
                return try await (try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT \(PostgresAuditTrail.columns) FROM \(schema.name).auditLog WHERE sequence > $1 ORDER BY sequence LIMIT 1000
                    """, binds: binds), logger: logger)).decode(PostgresAuditTrail.Row.self).collected().map(PostgresAuditTrail.entry)
            }
            for entry in page {
                guard try body(entry) else { return }
            }
            guard let final = page.last else { return }
            last = final.sequence
        }
    }

    /// Appends a row for an action that changes no stored row (an export), as the current ``AuditTrail/source``, in
    /// its own transaction.
    public func appendAudit(action: String, entity: String, entityID: String?, participantID: String?, after: String?) async throws {
        let row = PostgresAuditTrail.Action(action: action, entity: entity, entityID: entityID, participantID: participantID, after: after)
        try await transactions.serializable(appending: [row]) { _ in }
    }

    /// Checks this database's trail: every row keyed with its key and, when it is anchored, reaching the anchor as its
    /// file holds it now (signed with the keys folder's signing key). Nil when it holds, else where it first breaks.
    public func verifyAuditTrail() async throws -> AuditBreak? {
        if let keysFolder, let auditAnchorURL {
            return try await verifyAuditTrail(try Self.auditChainCheck(keysFolder: keysFolder, auditAnchor: auditAnchorURL))
        }
        return try await verifyAuditTrail(AuditChainCheck(key: audit.key, anchor: nil))
    }

    /// The check of a PostgreSQL study's audit trail (``AuditTrailStore/verifyAuditTrail(_:)``): every row keyed with the
    /// ``AuditKey`` of `keysFolder` (`audit-trail-key`), and the trail reaching the anchor in the file `auditAnchor`,
    /// signed by `publicKey` (by default the keys folder's own signing key; give the server's public key, as
    /// `studykit consent key` prints it, to check with a folder that holds the audit key alone).
    ///
    /// ```swift
    /// let check = try PostgresStudyDatabase.auditChainCheck(keysFolder: keys, auditAnchor: anchor)
    /// if let problem = try await database.verifyAuditTrail(check) { print(problem) }
    /// ```
    ///
    /// Throws ``PostgresStudyDatabaseError`` when the anchor or the key is missing or unreadable, or the anchor is not
    /// signed by that key.
    public static func auditChainCheck(keysFolder: URL, auditAnchor: URL, publicKey: ConsentPublicKey? = nil) throws -> AuditChainCheck {
        let keys = ConsentKeyStore(keysDirectory: keysFolder)
        let anchor: AuditAnchor?
        do {
            anchor = try AuditAnchorFile.read(at: auditAnchor)
        } catch {
            throw PostgresStudyDatabaseError.anchorRefused(path: auditAnchor.path, problem: "\(error)")
        }
        guard let anchor else { throw PostgresStudyDatabaseError.anchorMissing(path: auditAnchor.path) }
        let key = try auditKey(in: keys)
        let expected: ConsentPublicKey
        do {
            guard let found = try publicKey ?? keys.load()?.publicKey else {
                throw PostgresStudyDatabaseError.anchorRefused(path: auditAnchor.path, problem: "there is no signing key in \(keysFolder.path) to check it "
                    + "with; give the server's public key (studykit consent key prints it)")
            }
            expected = found
        } catch let error as PostgresStudyDatabaseError {
            throw error
        } catch {
            throw PostgresStudyDatabaseError.keyUnreadable(path: keys.keyFile.path, reason: "\(error)")
        }
        if let problem = anchor.problem(expecting: expected) { throw PostgresStudyDatabaseError.anchorRefused(path: auditAnchor.path, problem: problem) }
        return AuditChainCheck(key: key, anchor: anchor)
    }

    /// The audit trail's key in `keys` (`audit-trail-key`); ``PostgresStudyDatabaseError`` when it is missing or unreadable.
    private static func auditKey(in keys: ConsentKeyStore) throws -> AuditKey {
        let keyPath = keys.keysDirectory.appendingPathComponent(AuditKey.fileName).path
        do {
            guard let stored = try keys.loadSecret(named: AuditKey.fileName, byteCount: AuditKey.byteCount) else {
                throw PostgresStudyDatabaseError.keyMissing(path: keyPath)
            }
            return try AuditKey(rawRepresentation: stored)
        } catch let error as PostgresStudyDatabaseError {
            throw error
        } catch {
            throw PostgresStudyDatabaseError.keyUnreadable(path: keyPath, reason: "\(error)")
        }
    }

    /// Anchors the trail of the PostgreSQL study at `url` afresh where it ends now, for a study team that restored the
    /// database from a dump older than its anchor, or lost the anchor, and knows why (stop the study's servers first):
    /// every row is checked with the keys folder's audit key first (a trail that does not hold row by row is refused,
    /// and nothing is written), the new anchor `auditAnchor` written, signed with the keys folder's signing key, and then
    /// a row of the trail records it, as the current ``AuditTrail/source``, with `reason` and the anchor it replaced.
    ///
    /// ```swift
    /// let replaced = try await PostgresStudyDatabase.reanchorAuditTrail(url: url, keysFolder: keys, auditAnchor: anchor,
    ///                                                                   reason: "restored from the dump of 2026-11-27")
    /// ```
    @discardableResult
    public static func reanchorAuditTrail(url: String, keysFolder: URL, auditAnchor: URL, schema: PostgresCareSchema = .public, reason: String,
                                          environment: StudyKitEnvironment = .live,
                                          logger: Logger = PostgresStudyStorage.silentLogger) async throws -> AuditAnchor? {
        let keys = ConsentKeyStore(keysDirectory: keysFolder)
        let key = try auditKey(in: keys)
        let signingKey: ConsentSigningKey
        do {
            guard let signing = try keys.load() else {
                throw PostgresStudyDatabaseError.keyUnreadable(path: keys.keyFile.path, reason: "there is no signing key to sign the anchor with")
            }
            signingKey = signing
        } catch let error as PostgresStudyDatabaseError {
            throw error
        } catch {
            throw PostgresStudyDatabaseError.keyUnreadable(path: keys.keyFile.path, reason: "\(error)")
        }
        // An anchor that cannot be read is replaced like a lost one: the reason given says why.
        let previous = try? AuditAnchorFile.read(at: auditAnchor)
        // The rows, checked with the key, through an instance that checks no anchor (its own key is never used: it writes nothing).
        let (client, running, _) = try startClient(url: url, logger: logger)
        let head: (sequence: Int64, hash: String)
        do {
            let reader = PostgresStudyDatabase(client: client, schema: schema, environment: environment, logger: logger)
            let check = AuditChainCheck(key: key, anchor: nil, keyedFromSequence: previous?.keyedFromSequence ?? 1)
            if let broken = try await reader.verifyAuditTrail(check) {
                throw PostgresStudyDatabaseError.anchorRefused(path: auditAnchor.path, problem: "the trail itself does not hold at \(broken): "
                    + "it is not anchored again; run studykit audit verify")
            }
            head = try await PostgresTransactionRunner.readOnly(client, logger: logger) { connection in
                try await Self.head(on: connection, schema: schema, logger: logger)
            }
            running.cancel()
        } catch {
            running.cancel()
            throw error
        }
        let file = AuditAnchorFile(url: auditAnchor, signingKey: signingKey, keyedFromSequence: previous?.keyedFromSequence ?? 1, written: -1,
                                   now: environment.now)
        do {
            try file.record(sequence: head.sequence, hash: head.hash)
        } catch {
            throw PostgresStudyDatabaseError.anchorUnwritable(path: auditAnchor.path, reason: "\(error)")
        }
        // Opened as a server opens it, the anchor now holding; the row recording the re-anchoring moves it on.
        let database = try await connect(url: url, keysFolder: keysFolder, auditAnchor: auditAnchor, schema: schema, environment: environment,
                                         migrating: false, logger: logger)
        defer { database.close() }
        try await database.appendReanchoring(reason: reason, anchoredAt: head.sequence, replaced: previous)
        return previous
    }

    /// The last row of the trail as `connection` sees it: its sequence and hash; (0, "") for an empty trail.
    static func head(on connection: PostgresConnection, schema: PostgresCareSchema, logger: Logger) async throws -> (sequence: Int64, hash: String) {
        try await (try await connection.query(PostgresQuery(unsafeSQL: "SELECT sequence, hash FROM \(schema.name).auditLog ORDER BY sequence DESC LIMIT 1"),
                                   logger: logger)).decode((Int64, String).self).collected().first ?? (0, "")
    }
}

/// The audit trail's key and anchor of a PostgreSQL study, set up when it is opened for a server.
enum PostgresAuditKeying {
    /// The key of `keysFolder` and the anchor file `anchorURL` of a trail that ends at `head`. A new keys folder gets its
    /// key (only for an empty trail: rows keyed with a key that is gone cannot be continued); a trail without an anchor
    /// file gets its first one, naming `head`, when its key was made now or the trail is empty; otherwise the anchor
    /// must be the server's, and the trail must reach it with the hash it names (`hashOfRow`).
    ///
    /// `head` is read before the anchor, and another process may commit and anchor between the two: an anchor past
    /// `head` is checked against the head read again (`readHead`) before it is taken for a cut trail.
    static func open(keysFolder: URL, anchorURL: URL, head: (sequence: Int64, hash: String), now: @escaping @Sendable () -> Date,
                     readHead: @escaping @Sendable () async throws -> (sequence: Int64, hash: String),
                     hashOfRow: @escaping @Sendable (Int64) async throws -> String?) async throws -> (key: AuditKey, anchor: AuditAnchorFile) {
        let keys = ConsentKeyStore(keysDirectory: keysFolder)
        let keyPath = keys.keysDirectory.appendingPathComponent(AuditKey.fileName).path
        let signingKey: ConsentSigningKey
        var rawKey: Data?
        do {
            signingKey = try keys.loadOrCreate()
            rawKey = try keys.loadSecret(named: AuditKey.fileName, byteCount: AuditKey.byteCount)
        } catch {
            throw PostgresStudyDatabaseError.keyUnreadable(path: keysFolder.path, reason: "\(error)")
        }
        let madeNow = rawKey == nil
        if rawKey == nil {
            guard head.sequence == 0 else { throw PostgresStudyDatabaseError.keyMissing(path: keyPath) }
            do {
                var generator = SystemRandomNumberGenerator()
                rawKey = try keys.storeSecret(named: AuditKey.fileName, Data((0..<AuditKey.byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            } catch {
                throw PostgresStudyDatabaseError.keyUnreadable(path: keyPath, reason: "\(error)")
            }
        }
        let key: AuditKey
        do {
            key = try AuditKey(rawRepresentation: rawKey ?? Data())
        } catch {
            throw PostgresStudyDatabaseError.keyUnreadable(path: keyPath, reason: "\(error)")
        }
        let found: AuditAnchor?
        do {
            found = try AuditAnchorFile.read(at: anchorURL)
        } catch {
            throw PostgresStudyDatabaseError.anchorRefused(path: anchorURL.path, problem: "\(error)")
        }
        guard let anchor = found else {
            guard madeNow || head.sequence == 0 else { throw PostgresStudyDatabaseError.anchorMissing(path: anchorURL.path) }
            let file = AuditAnchorFile(url: anchorURL, signingKey: signingKey, keyedFromSequence: 1, written: -1, now: now)
            do {
                try file.record(sequence: head.sequence, hash: head.hash)
            } catch {
                throw PostgresStudyDatabaseError.anchorUnwritable(path: anchorURL.path, reason: "\(error)")
            }
            return (key, file)
        }
        if let problem = anchor.problem(expecting: signingKey.publicKey) {
            throw PostgresStudyDatabaseError.anchorRefused(path: anchorURL.path, problem: problem)
        }
        if head.sequence < anchor.sequence, try await readHead().sequence < anchor.sequence {
            throw PostgresStudyDatabaseError.anchorRefused(path: anchorURL.path, problem: "it names row \(anchor.sequence), and the trail ends at row "
                + "\(head.sequence): rows were removed from its end")
        }
        if anchor.sequence > 0, let stored = try await hashOfRow(anchor.sequence), stored != anchor.hash {
            throw PostgresStudyDatabaseError.anchorRefused(path: anchorURL.path, problem: "it names row \(anchor.sequence) with the hash "
                + "\(anchor.hash.prefix(12))…, and that row's hash is \(stored.prefix(12))…: the trail was rewritten")
        }
        return (key, AuditAnchorFile(url: anchorURL, signingKey: signingKey, keyedFromSequence: anchor.keyedFromSequence, written: anchor.sequence, now: now))
    }
}

/// Why a PostgreSQL study database cannot be opened or used: each names the database (host, port and database, never
/// the password) or the file at fault.
public enum PostgresStudyDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL is not a PostgreSQL URL.
    case invalidURL(reason: String)
    /// The database did not answer.
    case unreachable(database: String, reason: String)
    /// An operation did not finish in time.
    case timedOut(after: Duration)
    /// The schema could not be migrated or read.
    case migrationFailed(database: String, reason: String)
    /// A key file cannot be read or written.
    case keyUnreadable(path: String, reason: String)
    /// The audit trail's key is missing, and rows were written with it.
    case keyMissing(path: String)
    /// The anchor file is missing, and the trail was anchored before.
    case anchorMissing(path: String)
    /// The anchor is not the server's, or the trail does not reach it.
    case anchorRefused(path: String, problem: String)
    /// The anchor cannot be written (its folder is missing or not writable, the disk is full).
    case anchorUnwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let reason): "the database URL cannot be used: \(reason)"
        case .unreachable(let database, let reason): "the database \(database) does not answer: \(reason)"
        case .timedOut(let after): "no answer within \(after)"
        case .migrationFailed(let database, let reason): "the database \(database) could not be prepared (its schema migrated and read): \(reason)"
        case .keyUnreadable(let path, let reason): "the key \(path) cannot be used: \(reason)"
        case .keyMissing(let path):
            "the audit trail's key \(path) is missing, and rows were written with it: restore it from a backup (the trail cannot be "
                + "verified or continued without it)"
        case .anchorMissing(let path):
            "the audit trail's anchor \(path) is missing, and the trail was anchored before: it may have been cut or rewritten. "
                + "Restore the anchor from a backup (or copy it from another host of the study), then run studykit audit verify"
        case .anchorRefused(let path, let problem):
            "the audit trail's anchor \(path) does not hold: \(problem). Run studykit audit verify to find the first row that does not"
        case .anchorUnwritable(let path, let reason):
            "the audit trail's anchor \(path) cannot be written: \(reason)"
        }
    }
}
