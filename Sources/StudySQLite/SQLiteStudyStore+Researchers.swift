import Foundation
import GRDB
import Study

extension SQLiteStudyStore: ResearcherStore {
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
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM researcher ORDER BY createdAt, id").map(ResearcherRows.researcher) }
    }

    /// The researcher with this id.
    public func researcher(id: UUID) async throws -> Researcher? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM researcher WHERE id = ?", arguments: [id]).map(ResearcherRows.researcher) }
    }

    /// The researcher with this address.
    public func researcher(email: String) async throws -> Researcher? {
        let email = Researcher.normalizedEmail(email)
        return try read { db in
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
        return try read { db in
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

    /// Counts a wrong password, locking the researcher out at the `lockAfter`th.
    @discardableResult
    public func recordFailedSignIn(researcherID: UUID, lockAfter: Int, lockFor: TimeInterval) async throws -> Researcher {
        guard lockAfter > 0, lockFor > 0 else { throw ResearcherStoreError.invalidSetting("a lock-out needs a positive count and duration") }
        let until = seconds(environment.now().addingTimeInterval(lockFor))
        return try await write { db in
            try db.execute(sql: """
                UPDATE researcher SET
                    lockedUntil = CASE WHEN failedSignIns + 1 >= ? THEN ? ELSE lockedUntil END,
                    failedSignIns = CASE WHEN failedSignIns + 1 >= ? THEN 0 ELSE failedSignIns + 1 END
                WHERE id = ?
                """, arguments: [lockAfter, until, lockAfter, researcherID])
            return try ResearcherRows.require(researcherID, db)
        }
    }

    /// Signs the researcher in.
    public func createResearcherSession(researcherID: UUID, lifetime: TimeInterval) async throws -> IssuedResearcherSession {
        guard lifetime > 0 else { throw ResearcherStoreError.invalidSetting("a session's lifetime must be more than 0 seconds") }
        let now = environment.now()
        let token = StudySecrets.sessionToken(environment.randomBytes)
        let session = ResearcherSession(id: environment.makeUUID(), researcherID: researcherID, createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
        try await write { db in
            guard try ResearcherRows.require(researcherID, db).removedAt == nil else { throw ResearcherStoreError.unknownResearcher(researcherID) }
            try db.execute(sql: "UPDATE researcher SET failedSignIns = 0 WHERE id = ?", arguments: [researcherID])
            try db.execute(sql: "INSERT INTO researcherSession (id, tokenSHA256, researcherID, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [session.id, StudySecrets.tokenHash(token), researcherID, seconds(now), seconds(session.expiresAt)])
        }
        return IssuedResearcherSession(session: session, token: token)
    }

    /// The valid session of this token.
    public func researcherSession(token: String) async throws -> ResearcherSession? {
        let arguments: StatementArguments = [StudySecrets.tokenHash(token), seconds(environment.now())]
        return try read { db in
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
        ResearcherSession(id: row["id"], researcherID: row["researcherID"], createdAt: date(row["createdAt"]), expiresAt: date(row["expiresAt"]),
                          revokedAt: (row["revokedAt"] as Double?).map(date))
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
