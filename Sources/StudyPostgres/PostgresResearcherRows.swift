import CareStorePostgres
import Foundation
import Logging
import PostgresNIO
import Study

/// The accounts' rows in SQL with bound parameters, inside one transaction on one leased connection: what
/// ``PostgresResearcherStorage`` gives a transaction's body.
struct PostgresResearcherRows: ResearcherStorageWriter, Sendable {
    let connection: PostgresConnection
    let schema: PostgresCareSchema
    let logger: Logger

    // MARK: - Researchers

    private static let researcherColumns = "id, email, role, createdAt, passwordHash, failedSignIns, lockedUntil, removedAt"

    func researcher(id: UUID) async throws -> Researcher? {
        try await researchers("SELECT \(unescaped: Self.researcherColumns) FROM \(unescaped: schema.name).researcher WHERE id = \(id)").first
    }

    func researcher(email: String) async throws -> Researcher? {
        try await researchers("SELECT \(unescaped: Self.researcherColumns) FROM \(unescaped: schema.name).researcher WHERE email = \(email)").first
    }

    func researchers() async throws -> [Researcher] {
        try await researchers("SELECT \(unescaped: Self.researcherColumns) FROM \(unescaped: schema.name).researcher ORDER BY createdAt, id")
    }

    func insert(_ researcher: Researcher) async throws {
        try await execute("""
            INSERT INTO \(unescaped: schema.name).researcher (id, email, role, createdAt, passwordHash, failedSignIns, lockedUntil, removedAt)
            VALUES (\(researcher.id), \(researcher.email), \(researcher.role.rawValue), \(PostgresTimestamp(researcher.createdAt)),
                    \(researcher.passwordHash), \(Int64(researcher.failedSignIns)), \(researcher.lockedUntil.map(PostgresTimestamp.init)),
                    \(researcher.removedAt.map(PostgresTimestamp.init)))
            """)
    }

    func update(_ researcher: Researcher) async throws -> Bool {
        try await rowCount("""
            UPDATE \(unescaped: schema.name).researcher SET role = \(researcher.role.rawValue), passwordHash = \(researcher.passwordHash),
                failedSignIns = \(Int64(researcher.failedSignIns)), lockedUntil = \(researcher.lockedUntil.map(PostgresTimestamp.init)),
                removedAt = \(researcher.removedAt.map(PostgresTimestamp.init))
            WHERE id = \(researcher.id) RETURNING 1
            """) == 1
    }

    // MARK: - Password links

    func passwordLink(tokenSHA256: String) async throws -> ResearcherPasswordLink? {
        let rows = try await connection.query("""
            SELECT researcherID, createdAt, expiresAt, usedAt FROM \(unescaped: schema.name).researcherPasswordLink WHERE tokenSHA256 = \(tokenSHA256)
            """, logger: logger)
        var links: [ResearcherPasswordLink] = []
        for try await (researcherID, created, expires, used) in rows.decode((UUID, PostgresTimestamp, PostgresTimestamp, PostgresTimestamp?).self) {
            links.append(ResearcherPasswordLink(tokenSHA256: tokenSHA256, researcherID: researcherID, createdAt: created.date, expiresAt: expires.date,
                                                usedAt: used?.date))
        }
        return links.first
    }

    func insert(_ link: ResearcherPasswordLink) async throws {
        try await execute("""
            INSERT INTO \(unescaped: schema.name).researcherPasswordLink (tokenSHA256, researcherID, createdAt, expiresAt, usedAt)
            VALUES (\(link.tokenSHA256), \(link.researcherID), \(PostgresTimestamp(link.createdAt)), \(PostgresTimestamp(link.expiresAt)),
                    \(link.usedAt.map(PostgresTimestamp.init)))
            """)
    }

    func usePasswordLink(tokenSHA256: String, at date: Date) async throws {
        try await execute("""
            UPDATE \(unescaped: schema.name).researcherPasswordLink SET usedAt = \(PostgresTimestamp(date)) WHERE tokenSHA256 = \(tokenSHA256)
            """)
    }

    func deletePasswordLinks(researcherID: UUID, unusedOnly: Bool) async throws {
        if unusedOnly {
            try await execute("DELETE FROM \(unescaped: schema.name).researcherPasswordLink WHERE researcherID = \(researcherID) AND usedAt IS NULL")
        } else {
            try await execute("DELETE FROM \(unescaped: schema.name).researcherPasswordLink WHERE researcherID = \(researcherID)")
        }
    }

    // MARK: - Sessions

    func researcherSession(tokenSHA256: String) async throws -> ResearcherSession? {
        let rows = try await connection.query("""
            SELECT id, researcherID, createdAt, expiresAt, revokedAt, failedSignInsBefore, firstFailedSignInBefore, lastFailedSignInBefore,
                   failedSignInClientsBefore
            FROM \(unescaped: schema.name).researcherSession WHERE tokenSHA256 = \(tokenSHA256)
            """, logger: logger)
        var sessions: [ResearcherSession] = []
        for try await (id, researcherID, created, expires, revoked, count, first, last, clients)
                in rows.decode((UUID, UUID, PostgresTimestamp, PostgresTimestamp, PostgresTimestamp?, Int64, PostgresTimestamp?, PostgresTimestamp?, Int64).self) {
            var failures: FailedSignIns?
            if count > 0, let first, let last { failures = FailedSignIns(count: Int(count), first: first.date, last: last.date, clients: Int(clients)) }
            sessions.append(ResearcherSession(id: id, researcherID: researcherID, createdAt: created.date, expiresAt: expires.date,
                                              revokedAt: revoked?.date, failedSignInsBefore: failures))
        }
        return sessions.first
    }

    func insert(_ session: ResearcherSession, tokenSHA256: String) async throws {
        let failures = session.failedSignInsBefore
        try await execute("""
            INSERT INTO \(unescaped: schema.name).researcherSession (id, tokenSHA256, researcherID, createdAt, expiresAt, revokedAt, failedSignInsBefore,
                                                                     firstFailedSignInBefore, lastFailedSignInBefore, failedSignInClientsBefore)
            VALUES (\(session.id), \(tokenSHA256), \(session.researcherID), \(PostgresTimestamp(session.createdAt)), \(PostgresTimestamp(session.expiresAt)),
                    \(session.revokedAt.map(PostgresTimestamp.init)), \(Int64(failures?.count ?? 0)), \(failures.map { PostgresTimestamp($0.first) }),
                    \(failures.map { PostgresTimestamp($0.last) }), \(Int64(failures?.clients ?? 0)))
            """)
    }

    func revokeResearcherSession(id: UUID, researcherID: UUID, at date: Date) async throws -> Bool {
        try await rowCount("""
            UPDATE \(unescaped: schema.name).researcherSession SET revokedAt = coalesce(revokedAt, \(PostgresTimestamp(date)))
            WHERE id = \(id) AND researcherID = \(researcherID) RETURNING 1
            """) == 1
    }

    func revokeResearcherSessions(researcherID: UUID, at date: Date, unexpiredOnly: Bool) async throws -> Int {
        let now = PostgresTimestamp(date)
        if unexpiredOnly {
            return try await rowCount("""
                UPDATE \(unescaped: schema.name).researcherSession SET revokedAt = \(now)
                WHERE researcherID = \(researcherID) AND revokedAt IS NULL AND expiresAt > \(now) RETURNING 1
                """)
        }
        return try await rowCount("""
            UPDATE \(unescaped: schema.name).researcherSession SET revokedAt = \(now)
            WHERE researcherID = \(researcherID) AND revokedAt IS NULL RETURNING 1
            """)
    }

    // MARK: - Wrong passwords

    private static let tallyColumns = "failures, pausedUntil, unseen, firstUnseenAt, lastFailedAt"

    func signInFailureTally(emailSHA256: String, client: String) async throws -> SignInFailureTally? {
        try await tallies("""
            SELECT \(unescaped: Self.tallyColumns) FROM \(unescaped: schema.name).consoleSignInFailure
            WHERE emailSHA256 = \(emailSHA256) AND client = \(client)
            """).first
    }

    func signInFailureTallies(emailSHA256: String) async throws -> [SignInFailureTally] {
        try await tallies("""
            SELECT \(unescaped: Self.tallyColumns) FROM \(unescaped: schema.name).consoleSignInFailure WHERE emailSHA256 = \(emailSHA256) ORDER BY client
            """)
    }

    func save(_ tally: SignInFailureTally, emailSHA256: String, client: String, researcherID: UUID?) async throws {
        try await execute("""
            INSERT INTO \(unescaped: schema.name).consoleSignInFailure (emailSHA256, client, researcherID, failures, pausedUntil, unseen,
                                                                        firstUnseenAt, lastFailedAt)
            VALUES (\(emailSHA256), \(client), \(researcherID), \(Int64(tally.failures)), \(tally.pausedUntil.map(PostgresTimestamp.init)),
                    \(Int64(tally.unseen)), \(tally.firstUnseenAt.map(PostgresTimestamp.init)), \(tally.lastFailedAt.map(PostgresTimestamp.init)))
            ON CONFLICT (emailSHA256, client) DO UPDATE SET researcherID = excluded.researcherID, failures = excluded.failures,
                pausedUntil = excluded.pausedUntil, unseen = excluded.unseen, firstUnseenAt = excluded.firstUnseenAt,
                lastFailedAt = excluded.lastFailedAt
            """)
    }

    func deleteSignInFailureTally(emailSHA256: String, client: String) async throws {
        try await execute("DELETE FROM \(unescaped: schema.name).consoleSignInFailure WHERE emailSHA256 = \(emailSHA256) AND client = \(client)")
    }

    func deleteSpentSignInFailureTallies(at now: Date, pauseFor: TimeInterval) async throws {
        // SQLite's condition, with NULL for "never": no pause past now, no wrong password within pauseFor seconds, no news
        // for a researcher.
        try await execute("""
            DELETE FROM \(unescaped: schema.name).consoleSignInFailure
            WHERE (pausedUntil IS NULL OR pausedUntil <= \(PostgresTimestamp(now)))
                AND (lastFailedAt IS NULL OR lastFailedAt < \(PostgresTimestamp(now.addingTimeInterval(-pauseFor))))
                AND (researcherID IS NULL OR unseen = 0)
            """)
    }

    func markSignInFailuresSeen(emailSHA256: String) async throws {
        try await execute("""
            UPDATE \(unescaped: schema.name).consoleSignInFailure SET unseen = 0, firstUnseenAt = NULL WHERE emailSHA256 = \(emailSHA256) AND unseen > 0
            """)
    }

    // MARK: - Statements and rows

    private func execute(_ query: PostgresQuery) async throws {
        try await PostgresTransactionRunner.execute(query, on: connection, logger: logger)
    }

    private func rowCount(_ query: PostgresQuery) async throws -> Int {
        try await PostgresTransactionRunner.rowCount(query, on: connection, logger: logger)
    }

    private func researchers(_ query: PostgresQuery) async throws -> [Researcher] {
        var researchers: [Researcher] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, email, roleName, created, passwordHash, failedSignIns, lockedUntil, removed)
                in rows.decode((UUID, String, String, PostgresTimestamp, String?, Int64, PostgresTimestamp?, PostgresTimestamp?).self) {
            guard let role = ResearcherRole(rawValue: roleName) else {
                throw PostgresStudyStorageError(table: "researcher", column: "role", value: roleName)
            }
            researchers.append(Researcher(id: id, email: email, role: role, createdAt: created.date, passwordHash: passwordHash,
                                          failedSignIns: Int(failedSignIns), lockedUntil: lockedUntil?.date, removedAt: removed?.date))
        }
        return researchers
    }

    private func tallies(_ query: PostgresQuery) async throws -> [SignInFailureTally] {
        var tallies: [SignInFailureTally] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (failures, paused, unseen, firstUnseen, lastFailed)
                in rows.decode((Int64, PostgresTimestamp?, Int64, PostgresTimestamp?, PostgresTimestamp?).self) {
            tallies.append(SignInFailureTally(failures: Int(failures), pausedUntil: paused?.date, unseen: Int(unseen), firstUnseenAt: firstUnseen?.date,
                                              lastFailedAt: lastFailed?.date))
        }
        return tallies
    }
}
