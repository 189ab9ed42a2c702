import Foundation
import StudyKitEnvironment
import Synchronization

/// The study team's accounts in memory, for tests and previews: the accounts' rules over ``InMemoryResearcherStorage``.
/// ``InMemoryStudyStorage`` keeps them beside the study data, so that the in-memory study store is a `ResearcherStore`.
///
/// ```swift
/// let accounts = InMemoryResearcherAccounts(environment: .live)
/// let ana = try await accounts.addResearcher(email: "ana@example.org", role: .admin)
/// ```
public typealias InMemoryResearcherAccounts = StorageBackedResearcherAccounts<InMemoryResearcherStorage>

extension StorageBackedResearcherAccounts where Storage == InMemoryResearcherStorage {
    /// No accounts, with `environment`'s clock, UUIDs and randomness.
    public convenience init(environment: StudyKitEnvironment) {
        self.init(storage: InMemoryResearcherStorage(), environment: environment)
    }
}

/// The accounts' rows in memory. A write works on its own copy of the tables and puts it in place when its body
/// returns, so a failed write leaves nothing behind; writes run one at a time, and a read takes a copy between them.
public final class InMemoryResearcherStorage: ResearcherStorage {
    private let tables = Mutex(Tables())
    /// Held by a write for its whole transaction, which may await, and by a read while it takes its copy.
    private let gate = AsyncGate()

    /// Empty storage.
    public init() {}

    /// Runs `body` on a copy of the tables taken between writes.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any ResearcherStorageReader) async throws -> T) async throws -> T {
        let snapshot = await gate.withLock { tables.withLock { $0 } }
        return try await body(Transaction(tables: snapshot))
    }

    /// Runs `body` holding the gate; its changes are kept only when it returns.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any ResearcherStorageWriter) async throws -> T) async throws -> T {
        try await gate.withLock {
            let transaction = Transaction(tables: tables.withLock { $0 })
            let value = try await body(transaction)
            tables.withLock { $0 = transaction.tables }
            return value
        }
    }

    /// A tally with the researcher whose address it counted for, when it was counted.
    struct StoredTally: Sendable {
        var tally: SignInFailureTally
        var researcherID: UUID?
    }

    /// The rows.
    struct Tables: Sendable {
        var researchers: [UUID: Researcher] = [:]
        var links: [String: ResearcherPasswordLink] = [:]
        var sessions: [String: ResearcherSession] = [:]
        /// Per SHA-256 of the address tried, then per client address.
        var tallies: [String: [String: StoredTally]] = [:]
    }

    /// A transaction over its own copy of the tables.
    private final class Transaction: ResearcherStorageWriter {
        var tables: Tables

        init(tables: Tables) { self.tables = tables }

        func researcher(id: UUID) -> Researcher? { tables.researchers[id] }
        func researcher(email: String) -> Researcher? { tables.researchers.values.first { $0.email == email } }
        func researchers() -> [Researcher] {
            tables.researchers.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
        }

        func passwordLink(tokenSHA256: String) -> ResearcherPasswordLink? { tables.links[tokenSHA256] }
        func researcherSession(tokenSHA256: String) -> ResearcherSession? { tables.sessions[tokenSHA256] }

        func signInFailureTally(emailSHA256: String, client: String) -> SignInFailureTally? { tables.tallies[emailSHA256]?[client]?.tally }
        func signInFailureTallies(emailSHA256: String) -> [SignInFailureTally] {
            (tables.tallies[emailSHA256] ?? [:]).sorted { $0.key < $1.key }.map(\.value.tally)
        }

        func insert(_ researcher: Researcher) throws {
            guard tables.researchers[researcher.id] == nil else {
                throw StudyStorageRowError.keyTaken(table: "researcher", key: researcher.id.uuidString)
            }
            guard !tables.researchers.values.contains(where: { $0.email == researcher.email }) else {
                throw StudyStorageRowError.keyTaken(table: "researcher", key: researcher.email)
            }
            tables.researchers[researcher.id] = researcher
        }

        func update(_ researcher: Researcher) -> Bool {
            guard var stored = tables.researchers[researcher.id] else { return false }
            stored.role = researcher.role
            stored.passwordHash = researcher.passwordHash
            stored.failedSignIns = researcher.failedSignIns
            stored.lockedUntil = researcher.lockedUntil
            stored.removedAt = researcher.removedAt
            tables.researchers[researcher.id] = stored
            return true
        }

        func insert(_ link: ResearcherPasswordLink) throws {
            guard tables.links[link.tokenSHA256] == nil else { throw StudyStorageRowError.keyTaken(table: "researcherPasswordLink", key: link.tokenSHA256) }
            tables.links[link.tokenSHA256] = link
        }

        func usePasswordLink(tokenSHA256: String, at date: Date) { tables.links[tokenSHA256]?.usedAt = date }

        func deletePasswordLinks(researcherID: UUID, unusedOnly: Bool) {
            tables.links = tables.links.filter { $0.value.researcherID != researcherID || (unusedOnly && $0.value.usedAt != nil) }
        }

        func insert(_ session: ResearcherSession, tokenSHA256: String) throws {
            guard tables.sessions[tokenSHA256] == nil, !tables.sessions.values.contains(where: { $0.id == session.id }) else {
                throw StudyStorageRowError.keyTaken(table: "researcherSession", key: session.id.uuidString)
            }
            tables.sessions[tokenSHA256] = session
        }

        func revokeResearcherSession(id: UUID, researcherID: UUID, at date: Date) -> Bool {
            guard let (hash, session) = tables.sessions.first(where: { $0.value.id == id && $0.value.researcherID == researcherID }) else {
                return false
            }
            if session.revokedAt == nil { tables.sessions[hash]?.revokedAt = date }
            return true
        }

        func revokeResearcherSessions(researcherID: UUID, at date: Date, unexpiredOnly: Bool) -> Int {
            var revoked = 0
            for (hash, session) in tables.sessions
            where session.researcherID == researcherID && session.revokedAt == nil && (!unexpiredOnly || date < session.expiresAt) {
                tables.sessions[hash]?.revokedAt = date
                revoked += 1
            }
            return revoked
        }

        func save(_ tally: SignInFailureTally, emailSHA256: String, client: String, researcherID: UUID?) {
            tables.tallies[emailSHA256, default: [:]][client] = StoredTally(tally: tally, researcherID: researcherID)
        }

        func deleteSignInFailureTally(emailSHA256: String, client: String) {
            tables.tallies[emailSHA256]?[client] = nil
            if tables.tallies[emailSHA256]?.isEmpty == true { tables.tallies[emailSHA256] = nil }
        }

        func deleteSpentSignInFailureTallies(at now: Date, pauseFor: TimeInterval) {
            tables.tallies = tables.tallies.compactMapValues { byClient in
                let kept = byClient.filter { !$0.value.tally.isSpent(at: now, pauseFor: pauseFor, isResearchers: $0.value.researcherID != nil) }
                return kept.isEmpty ? nil : kept
            }
        }

        func markSignInFailuresSeen(emailSHA256: String) {
            guard var byClient = tables.tallies[emailSHA256] else { return }
            for client in byClient.keys where byClient[client]!.tally.unseen > 0 {
                byClient[client]!.tally.unseen = 0
                byClient[client]!.tally.firstUnseenAt = nil
            }
            tables.tallies[emailSHA256] = byClient
        }
    }
}
