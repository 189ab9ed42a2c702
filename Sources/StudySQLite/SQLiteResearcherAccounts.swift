import CareStoreSQLite
import Foundation
import GRDB
import Study
import StudyKitEnvironment

/// The study team's accounts in the study's SQLite file: researchers, their sessions and password links, and the wrong
/// passwords tried (`consoleSignInFailure`), all rows of the file, so that every server process on it agrees.
final class SQLiteResearcherAccounts: ResearcherStore {
    let connections: SQLiteConnections
    let environment: StudyKitEnvironment
    /// Who is writing, for the joint file's audit trail; nil for a file of its own.
    private let audit: SQLiteAuditTrail.WriteContext?

    init(connections: SQLiteConnections, environment: StudyKitEnvironment, audit: SQLiteAuditTrail.WriteContext?) {
        self.connections = connections
        self.environment = environment
        self.audit = audit
    }

    /// Runs `body`, one statement or several read together, in a read transaction.
    private func read<T>(_ body: (Database) throws -> T) async throws -> T {
        try await connections.read { connection in try connection.run(body) }
    }

    /// Runs `body` in a write transaction with the writing task's source in the audit trail.
    private func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        let audit = audit, source = AuditTrail.source
        return try await connections.write { db in try SQLiteAuditTrail.run(audit, as: source, in: db) { try body(db) } }
    }

    /// Adds a researcher without a password.
    public func addResearcher(email: String, role: ResearcherRole) async throws -> Researcher {
        if let problem = Researcher.problem(withEmail: email) { throw ResearcherStoreError.invalidEmail(problem) }
        let researcher = Researcher(id: environment.makeUUID(), email: Researcher.normalizedEmail(email), role: role, createdAt: environment.now())
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM researcher WHERE email = ?", arguments: [researcher.email]) != true else {
                throw ResearcherStoreError.emailTaken(researcher.email)
            }
            try db.execute(sql: "INSERT INTO researcher (id, email, role, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [researcher.id, researcher.email, role.rawValue, seconds(researcher.createdAt)])
        }
        return researcher
    }

    /// Every researcher, by the time they were added.
    public func researchers() async throws -> [Researcher] {
        try await read { db in try Row.fetchAll(db, sql: "SELECT * FROM researcher ORDER BY createdAt, id").map(ResearcherRows.researcher) }
    }

    /// The researcher with this id.
    public func researcher(id: UUID) async throws -> Researcher? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM researcher WHERE id = ?", arguments: [id]).map(ResearcherRows.researcher) }
    }

    /// The researcher with this address.
    public func researcher(email: String) async throws -> Researcher? {
        let email = Researcher.normalizedEmail(email)
        return try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM researcher WHERE email = ?", arguments: [email]).map(ResearcherRows.researcher)
        }
    }

    /// Changes a researcher's role.
    @discardableResult
    public func setRole(_ role: ResearcherRole, researcherID: UUID) async throws -> Researcher {
        try await write { db in
            try db.execute(sql: "UPDATE researcher SET role = ? WHERE id = ?", arguments: [role.rawValue, researcherID])
            return try ResearcherRows.require(researcherID, db)
        }
    }

    /// Removes a researcher, ending their sessions and links.
    @discardableResult
    public func removeResearcher(id: UUID) async throws -> Researcher {
        let now = seconds(environment.now())
        return try await write { db in
            try db.execute(sql: "UPDATE researcher SET removedAt = coalesce(removedAt, ?) WHERE id = ?", arguments: [now, id])
            let researcher = try ResearcherRows.require(id, db)
            try ResearcherRows.endSessionsAndLinks(of: id, at: now, db)
            return researcher
        }
    }

    /// A one-time password link, replacing the researcher's earlier ones.
    public func createPasswordLink(researcherID: UUID, lifetime: TimeInterval) async throws -> IssuedPasswordLink {
        guard lifetime > 0 else { throw ResearcherStoreError.invalidSetting("a link's lifetime must be more than 0 seconds") }
        let now = environment.now()
        let token = StudySecrets.sessionToken(environment.randomBytes)
        let expiresAt = now.addingTimeInterval(lifetime)
        try await write { db in
            guard try ResearcherRows.require(researcherID, db).removedAt == nil else { throw ResearcherStoreError.unknownResearcher(researcherID) }
            try db.execute(sql: "DELETE FROM researcherPasswordLink WHERE researcherID = ?", arguments: [researcherID])
            try db.execute(sql: "INSERT INTO researcherPasswordLink (tokenSHA256, researcherID, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                           arguments: [StudySecrets.tokenHash(token), researcherID, seconds(now), seconds(expiresAt)])
        }
        return IssuedPasswordLink(researcherID: researcherID, token: token, expiresAt: expiresAt)
    }

    /// The researcher a live link is for.
    public func researcher(passwordLinkToken token: String) async throws -> Researcher? {
        let arguments: StatementArguments = [StudySecrets.tokenHash(token), seconds(environment.now())]
        return try await read { db in
            try Row.fetchOne(db, sql: ResearcherRows.liveLinkResearcher, arguments: arguments).map(ResearcherRows.researcher)
        }
    }

    /// Uses up a live link and stores the password's hash.
    public func setPassword(linkToken token: String, passwordHash: String) async throws -> Researcher? {
        let hash = StudySecrets.tokenHash(token)
        let now = seconds(environment.now())
        return try await write { db in
            guard let row = try Row.fetchOne(db, sql: ResearcherRows.liveLinkResearcher, arguments: [hash, now]) else { return nil }
            let id: UUID = row["id"]
            try db.execute(sql: "UPDATE researcherPasswordLink SET usedAt = ? WHERE tokenSHA256 = ?", arguments: [now, hash])
            try ResearcherRows.endSessionsAndLinks(of: id, at: now, db)
            try db.execute(sql: "UPDATE researcher SET passwordHash = ?, failedSignIns = 0, lockedUntil = NULL WHERE id = ?",
                           arguments: [passwordHash, id])
            return try ResearcherRows.require(id, db)
        }
    }

    /// Counts a wrong password for `email` from `client`, pausing the two together at the `pauseAfter`th.
    @discardableResult
    public func recordFailedSignIn(email: String, client: String, pauseAfter: Int, pauseFor: TimeInterval) async throws -> Date? {
        guard pauseAfter > 0, pauseFor > 0 else { throw ResearcherStoreError.invalidSetting("a pause needs a positive count and duration") }
        let now = environment.now()
        let email = Researcher.normalizedEmail(email)
        let account = StudySecrets.tokenHash(email)
        return try await write { db in
            // Tallies that say nothing any more go first (one that holds news for a researcher waits for them).
            try db.execute(sql: """
                DELETE FROM consoleSignInFailure
                WHERE coalesce(pausedUntil, 0) <= ? AND coalesce(lastFailedAt, 0) < ? AND (researcherID IS NULL OR unseen = 0)
                """, arguments: [seconds(now), seconds(now) - pauseFor])
            let researcherID = try UUID.fetchOne(db, sql: "SELECT id FROM researcher WHERE email = ?", arguments: [email])
            var tally = try Row.fetchOne(db, sql: "SELECT * FROM consoleSignInFailure WHERE emailSHA256 = ? AND client = ?",
                                         arguments: [account, client]).map(ResearcherRows.tally) ?? SignInFailureTally()
            let paused = tally.recordFailure(at: now, pauseAfter: pauseAfter, pauseFor: pauseFor)
            try db.execute(sql: """
                INSERT INTO consoleSignInFailure (emailSHA256, client, researcherID, failures, pausedUntil, unseen, firstUnseenAt, lastFailedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (emailSHA256, client) DO UPDATE SET researcherID = excluded.researcherID, failures = excluded.failures,
                    pausedUntil = excluded.pausedUntil, unseen = excluded.unseen, firstUnseenAt = excluded.firstUnseenAt,
                    lastFailedAt = excluded.lastFailedAt
                """, arguments: [account, client, researcherID, tally.failures, tally.pausedUntil.map(seconds), tally.unseen,
                                 tally.firstUnseenAt.map(seconds), tally.lastFailedAt.map(seconds)])
            return paused
        }
    }

    /// Until when signing in as `email` from `client` is paused.
    public func signInPause(email: String, client: String) async throws -> Date? {
        let arguments: StatementArguments = [StudySecrets.tokenHash(Researcher.normalizedEmail(email)), client, seconds(environment.now())]
        return try await read { db in
            try Double.fetchOne(db, sql: "SELECT pausedUntil FROM consoleSignInFailure WHERE emailSHA256 = ? AND client = ? AND pausedUntil > ?",
                                arguments: arguments).map(date)
        }
    }

    /// Signs the researcher in, handing them the wrong passwords tried for their address since their last sign-in.
    public func createResearcherSession(researcherID: UUID, lifetime: TimeInterval, client: String?) async throws -> IssuedResearcherSession {
        guard lifetime > 0 else { throw ResearcherStoreError.invalidSetting("a session's lifetime must be more than 0 seconds") }
        let now = environment.now()
        let token = StudySecrets.sessionToken(environment.randomBytes)
        let id = environment.makeUUID(), expiresAt = now.addingTimeInterval(lifetime)
        let failedSignInsBefore = try await write { db in
            let researcher = try ResearcherRows.require(researcherID, db)
            guard researcher.removedAt == nil else { throw ResearcherStoreError.unknownResearcher(researcherID) }
            let account = StudySecrets.tokenHash(researcher.email)
            let tallies = try Row.fetchAll(db, sql: "SELECT * FROM consoleSignInFailure WHERE emailSHA256 = ?", arguments: [account])
                .map(ResearcherRows.tally)
            let failures = SignInFailureTally.unseen(in: tallies)
            try db.execute(sql: "UPDATE consoleSignInFailure SET unseen = 0, firstUnseenAt = NULL WHERE emailSHA256 = ? AND unseen > 0",
                           arguments: [account])
            if let client {
                try db.execute(sql: "DELETE FROM consoleSignInFailure WHERE emailSHA256 = ? AND client = ?", arguments: [account, client])
            }
            try db.execute(sql: """
                INSERT INTO researcherSession (id, tokenSHA256, researcherID, createdAt, expiresAt, failedSignInsBefore, firstFailedSignInBefore,
                                               lastFailedSignInBefore, failedSignInClientsBefore)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, StudySecrets.tokenHash(token), researcherID, seconds(now), seconds(expiresAt),
                                 failures?.count ?? 0, failures.map { seconds($0.first) }, failures.map { seconds($0.last) }, failures?.clients ?? 0])
            return failures
        }
        let session = ResearcherSession(id: id, researcherID: researcherID, createdAt: now, expiresAt: expiresAt, failedSignInsBefore: failedSignInsBefore)
        return IssuedResearcherSession(session: session, token: token)
    }

    /// The valid session of this token.
    public func researcherSession(token: String) async throws -> ResearcherSession? {
        let arguments: StatementArguments = [StudySecrets.tokenHash(token), seconds(environment.now())]
        return try await read { db in
            try Row.fetchOne(db, sql: """
                SELECT s.* FROM researcherSession s JOIN researcher r ON r.id = s.researcherID
                WHERE s.tokenSHA256 = ? AND s.revokedAt IS NULL AND s.expiresAt > ? AND r.removedAt IS NULL
                """, arguments: arguments).map(ResearcherRows.session)
        }
    }

    /// Signs one session out.
    @discardableResult
    public func revokeResearcherSession(id: UUID, researcherID: UUID) async throws -> Bool {
        let now = seconds(environment.now())
        return try await write { db in
            try db.execute(sql: "UPDATE researcherSession SET revokedAt = coalesce(revokedAt, ?) WHERE id = ? AND researcherID = ?",
                           arguments: [now, id, researcherID])
            return db.changesCount == 1
        }
    }

    /// Signs the researcher out everywhere.
    @discardableResult
    public func revokeResearcherSessions(researcherID: UUID) async throws -> Int {
        let now = seconds(environment.now())
        return try await write { db in
            try db.execute(sql: "UPDATE researcherSession SET revokedAt = ? WHERE researcherID = ? AND revokedAt IS NULL AND expiresAt > ?",
                           arguments: [now, researcherID, now])
            return db.changesCount
        }
    }
}

/// Researcher rows read back, and the writes several methods share.
private enum ResearcherRows {
    /// The researcher of a live password link: arguments the link's SHA-256 and now.
    static let liveLinkResearcher = """
        SELECT r.* FROM researcherPasswordLink l JOIN researcher r ON r.id = l.researcherID
        WHERE l.tokenSHA256 = ? AND l.usedAt IS NULL AND l.expiresAt > ? AND r.removedAt IS NULL
        """

    static func researcher(_ row: Row) throws -> Researcher {
        let roleName: String = row["role"]
        guard let role = ResearcherRole(rawValue: roleName) else {
            throw ResearcherStoreError.invalidSetting("researcher \(row["email"] as String? ?? "?") has the unknown role '\(roleName)'")
        }
        return Researcher(id: row["id"], email: row["email"], role: role, createdAt: date(row["createdAt"]), passwordHash: row["passwordHash"],
                          failedSignIns: row["failedSignIns"], lockedUntil: (row["lockedUntil"] as Double?).map(date),
                          removedAt: (row["removedAt"] as Double?).map(date))
    }

    static func session(_ row: Row) throws -> ResearcherSession {
        var failures: FailedSignIns?
        let count: Int = row["failedSignInsBefore"]
        if count > 0, let first = row["firstFailedSignInBefore"] as Double?, let last = row["lastFailedSignInBefore"] as Double? {
            failures = FailedSignIns(count: count, first: date(first), last: date(last), clients: row["failedSignInClientsBefore"])
        }
        return ResearcherSession(id: row["id"], researcherID: row["researcherID"], createdAt: date(row["createdAt"]), expiresAt: date(row["expiresAt"]),
                                 revokedAt: (row["revokedAt"] as Double?).map(date), failedSignInsBefore: failures)
    }

    static func tally(_ row: Row) -> SignInFailureTally {
        SignInFailureTally(failures: row["failures"], pausedUntil: (row["pausedUntil"] as Double?).map(date), unseen: row["unseen"],
                           firstUnseenAt: (row["firstUnseenAt"] as Double?).map(date), lastFailedAt: (row["lastFailedAt"] as Double?).map(date))
    }

    static func require(_ id: UUID, _ db: Database) throws -> Researcher {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM researcher WHERE id = ?", arguments: [id]) else {
            throw ResearcherStoreError.unknownResearcher(id)
        }
        return try researcher(row)
    }

    static func endSessionsAndLinks(of id: UUID, at now: Double, _ db: Database) throws {
        try db.execute(sql: "UPDATE researcherSession SET revokedAt = ? WHERE researcherID = ? AND revokedAt IS NULL", arguments: [now, id])
        try db.execute(sql: "DELETE FROM researcherPasswordLink WHERE researcherID = ? AND usedAt IS NULL", arguments: [id])
    }
}
