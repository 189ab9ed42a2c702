import CareStoreSQLite
import Foundation
import GRDB
import Study

/// The accounts' rows in SQL with bound arguments, each primitive run at once on the connection lent to its
/// transaction: what ``SQLiteResearcherStorage`` gives a transaction's body.
struct SQLiteResearcherRows: ResearcherStorageWriter {
    let connection: SQLiteLentConnection

    init(_ connection: SQLiteLentConnection) {
        self.connection = connection
    }

    private func run<T>(_ body: (Database) throws -> T) throws -> T { try connection.run(body) }

    // MARK: - Researchers

    func researcher(id: UUID) throws -> Researcher? {
        try run { db in try Row.fetchOne(db, sql: "SELECT * FROM researcher WHERE id = ?", arguments: [id]).map(Self.researcher) }
    }

    func researcher(email: String) throws -> Researcher? {
        try run { db in try Row.fetchOne(db, sql: "SELECT * FROM researcher WHERE email = ?", arguments: [email]).map(Self.researcher) }
    }

    func researchers() throws -> [Researcher] {
        try run { db in try Row.fetchAll(db, sql: "SELECT * FROM researcher ORDER BY createdAt, id").map(Self.researcher) }
    }

    func insert(_ researcher: Researcher) throws {
        try run { db in
            try db.execute(sql: """
                INSERT INTO researcher (id, email, role, createdAt, passwordHash, failedSignIns, lockedUntil, removedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [researcher.id, researcher.email, researcher.role.rawValue, seconds(researcher.createdAt), researcher.passwordHash,
                                 researcher.failedSignIns, researcher.lockedUntil.map(seconds), researcher.removedAt.map(seconds)])
        }
    }

    func update(_ researcher: Researcher) throws -> Bool {
        try run { db in
            try db.execute(sql: "UPDATE researcher SET role = ?, passwordHash = ?, failedSignIns = ?, lockedUntil = ?, removedAt = ? WHERE id = ?",
                           arguments: [researcher.role.rawValue, researcher.passwordHash, researcher.failedSignIns,
                                       researcher.lockedUntil.map(seconds), researcher.removedAt.map(seconds), researcher.id])
            return db.changesCount == 1
        }
    }

    // MARK: - Password links

    func passwordLink(tokenSHA256: String) throws -> ResearcherPasswordLink? {
        try run { db in
            try Row.fetchOne(db, sql: "SELECT * FROM researcherPasswordLink WHERE tokenSHA256 = ?", arguments: [tokenSHA256]).map { row in
                ResearcherPasswordLink(tokenSHA256: row["tokenSHA256"], researcherID: row["researcherID"], createdAt: date(row["createdAt"]),
                                       expiresAt: date(row["expiresAt"]), usedAt: (row["usedAt"] as Double?).map(date))
            }
        }
    }

    func insert(_ link: ResearcherPasswordLink) throws {
        try run { db in
            try db.execute(sql: "INSERT INTO researcherPasswordLink (tokenSHA256, researcherID, createdAt, expiresAt, usedAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [link.tokenSHA256, link.researcherID, seconds(link.createdAt), seconds(link.expiresAt), link.usedAt.map(seconds)])
        }
    }

    func usePasswordLink(tokenSHA256: String, at date: Date) throws {
        try run { db in
            try db.execute(sql: "UPDATE researcherPasswordLink SET usedAt = ? WHERE tokenSHA256 = ?", arguments: [seconds(date), tokenSHA256])
        }
    }

    func deletePasswordLinks(researcherID: UUID, unusedOnly: Bool) throws {
        try run { db in
            try db.execute(sql: "DELETE FROM researcherPasswordLink WHERE researcherID = ?" + (unusedOnly ? " AND usedAt IS NULL" : ""),
                           arguments: [researcherID])
        }
    }

    // MARK: - Sessions

    func researcherSession(tokenSHA256: String) throws -> ResearcherSession? {
        try run { db in
            try Row.fetchOne(db, sql: "SELECT * FROM researcherSession WHERE tokenSHA256 = ?", arguments: [tokenSHA256]).map(Self.session)
        }
    }

    func insert(_ session: ResearcherSession, tokenSHA256: String) throws {
        let failures = session.failedSignInsBefore
        try run { db in
            try db.execute(sql: """
                INSERT INTO researcherSession (id, tokenSHA256, researcherID, createdAt, expiresAt, revokedAt, failedSignInsBefore,
                                               firstFailedSignInBefore, lastFailedSignInBefore, failedSignInClientsBefore)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [session.id, tokenSHA256, session.researcherID, seconds(session.createdAt), seconds(session.expiresAt),
                                 session.revokedAt.map(seconds), failures?.count ?? 0, failures.map { seconds($0.first) },
                                 failures.map { seconds($0.last) }, failures?.clients ?? 0])
        }
    }

    func revokeResearcherSession(id: UUID, researcherID: UUID, at date: Date) throws -> Bool {
        try run { db in
            try db.execute(sql: "UPDATE researcherSession SET revokedAt = coalesce(revokedAt, ?) WHERE id = ? AND researcherID = ?",
                           arguments: [seconds(date), id, researcherID])
            return db.changesCount == 1
        }
    }

    func revokeResearcherSessions(researcherID: UUID, at date: Date, unexpiredOnly: Bool) throws -> Int {
        try run { db in
            let now = seconds(date)
            if unexpiredOnly {
                try db.execute(sql: "UPDATE researcherSession SET revokedAt = ? WHERE researcherID = ? AND revokedAt IS NULL AND expiresAt > ?",
                               arguments: [now, researcherID, now])
            } else {
                try db.execute(sql: "UPDATE researcherSession SET revokedAt = ? WHERE researcherID = ? AND revokedAt IS NULL", arguments: [now, researcherID])
            }
            return db.changesCount
        }
    }

    // MARK: - Wrong passwords

    func signInFailureTally(emailSHA256: String, client: String) throws -> SignInFailureTally? {
        try run { db in
            try Row.fetchOne(db, sql: "SELECT * FROM consoleSignInFailure WHERE emailSHA256 = ? AND client = ?", arguments: [emailSHA256, client])
                .map(Self.tally)
        }
    }

    func signInFailureTallies(emailSHA256: String) throws -> [SignInFailureTally] {
        try run { db in
            try Row.fetchAll(db, sql: "SELECT * FROM consoleSignInFailure WHERE emailSHA256 = ? ORDER BY client", arguments: [emailSHA256]).map(Self.tally)
        }
    }

    func save(_ tally: SignInFailureTally, emailSHA256: String, client: String, researcherID: UUID?) throws {
        try run { db in
            try db.execute(sql: """
                INSERT INTO consoleSignInFailure (emailSHA256, client, researcherID, failures, pausedUntil, unseen, firstUnseenAt, lastFailedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (emailSHA256, client) DO UPDATE SET researcherID = excluded.researcherID, failures = excluded.failures,
                    pausedUntil = excluded.pausedUntil, unseen = excluded.unseen, firstUnseenAt = excluded.firstUnseenAt,
                    lastFailedAt = excluded.lastFailedAt
                """, arguments: [emailSHA256, client, researcherID, tally.failures, tally.pausedUntil.map(seconds), tally.unseen,
                                 tally.firstUnseenAt.map(seconds), tally.lastFailedAt.map(seconds)])
        }
    }

    func deleteSignInFailureTally(emailSHA256: String, client: String) throws {
        try run { db in
            try db.execute(sql: "DELETE FROM consoleSignInFailure WHERE emailSHA256 = ? AND client = ?", arguments: [emailSHA256, client])
        }
    }

    func deleteSpentSignInFailureTallies(at now: Date, pauseFor: TimeInterval) throws {
        try run { db in
            try db.execute(sql: """
                DELETE FROM consoleSignInFailure
                WHERE coalesce(pausedUntil, 0) <= ? AND coalesce(lastFailedAt, 0) < ? AND (researcherID IS NULL OR unseen = 0)
                """, arguments: [seconds(now), seconds(now) - pauseFor])
        }
    }

    func markSignInFailuresSeen(emailSHA256: String) throws {
        try run { db in
            try db.execute(sql: "UPDATE consoleSignInFailure SET unseen = 0, firstUnseenAt = NULL WHERE emailSHA256 = ? AND unseen > 0",
                           arguments: [emailSHA256])
        }
    }

    // MARK: - Rows

    static func researcher(_ row: Row) throws -> Researcher {
        let roleName: String = row["role"]
        guard let role = ResearcherRole(rawValue: roleName) else {
            throw SQLiteStudyStoreError(table: "researcher", column: "role", value: roleName)
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
}
