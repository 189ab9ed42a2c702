import Crypto
import Foundation

/// Who is acting and why, for the audit trail rows a write appends: set for the duration of a request or a command
/// (`AuditTrail.$source.withValue(…)`), read by the store as each write begins.
public struct AuditSource: Hashable, Sendable {
    /// Who: see ``AuditEntry/actor``.
    public var actor: String
    /// Why; nil for no reason given.
    public var reason: String?

    /// A source; see the properties.
    public init(actor: String, reason: String? = nil) {
        self.actor = actor
        self.reason = reason
    }

    /// The server acting on its own (printing a consent PDF, merging an older data folder).
    public static let server = AuditSource(actor: "server")
}

/// The audit trail's rules, in one place for every backend: how a row is hashed, how the chain is checked, and who is
/// acting now.
public enum AuditTrail {
    /// Who is acting in this task (a request, a command); the server by default.
    @TaskLocal public static var source = AuditSource.server

    /// The hash of a row: SHA-256, in lowercase hex, of `previousHash` and each field, each written as `N` when absent
    /// or as `S`, its UTF-8 length, `:` and its bytes, so that no two different rows hash alike.
    public static func hash(previousHash: String, of fields: [String?]) -> String {
        var hasher = SHA256()
        func add(_ text: String?) {
            guard let text else { return hasher.update(data: Data("N".utf8)) }
            let bytes = Data(text.utf8)
            hasher.update(data: Data("S\(bytes.count):".utf8))
            hasher.update(data: bytes)
        }
        add(previousHash)
        for field in fields { add(field) }
        return hasher.finalize().map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    /// The first row where the chain breaks, and why; nil when every row holds (see ``AuditChainCheck``).
    public static func verify<Entries: Sequence<AuditEntry>>(_ entries: Entries) -> AuditBreak? {
        var check = AuditChainCheck()
        for entry in entries {
            if let problem = check.next(entry) { return problem }
        }
        return nil
    }
}

/// Checks a trail one row at a time, in order: each row's `previousHash` is the hash of the row before (empty for the
/// first), its hash is that of its fields, and the sequence runs 1, 2, 3… without a gap.
public struct AuditChainCheck: Sendable {
    private var previousHash = ""
    private var expectedSequence: Int64 = 1

    public init() {}

    /// The problem with `entry` as the next row; nil when it holds.
    public mutating func next(_ entry: AuditEntry) -> AuditBreak? {
        if entry.sequence != expectedSequence {
            return AuditBreak(sequence: min(entry.sequence, expectedSequence),
                              problem: "the rows jump from \(expectedSequence - 1) to \(entry.sequence): a row was removed or renumbered")
        }
        if entry.previousHash != previousHash {
            return AuditBreak(sequence: entry.sequence, problem: "it does not follow the row before: it names \(entry.previousHash.prefix(12))…, "
                + "the row before hashes to \(previousHash.prefix(12))…")
        }
        let computed = AuditTrail.hash(previousHash: entry.previousHash, of: entry.hashedFields)
        if computed != entry.hash {
            return AuditBreak(sequence: entry.sequence,
                              problem: "its content was changed: it hashes to \(computed.prefix(12))…, not to its stored \(entry.hash.prefix(12))…")
        }
        previousHash = entry.hash
        expectedSequence += 1
        return nil
    }
}

/// Where the audit trail's chain breaks.
public struct AuditBreak: Hashable, Sendable, CustomStringConvertible {
    /// The first row that does not hold.
    public var sequence: Int64
    /// What is wrong with it.
    public var problem: String

    public init(sequence: Int64, problem: String) {
        self.sequence = sequence
        self.problem = problem
    }

    public var description: String { "row \(sequence): \(problem)" }
}

/// The audit trail as a store keeps it: written by the store itself with each change (in the same transaction), read
/// here.
public protocol AuditTrailStore: Sendable {
    /// The participant's rows, newest first, at most `limit`.
    func auditEntries(participantID: String, limit: Int) async throws -> [AuditEntry]
    /// Every row in order, handed to `body` one at a time (the trail can be long); `body` returns false to stop.
    func forEachAuditEntry(_ body: (AuditEntry) throws -> Bool) async throws
    /// Appends a row for an action that changes no stored row (an export), in its own transaction.
    func appendAudit(action: String, entity: String, entityID: String?, participantID: String?, after: String?) async throws
}

extension AuditTrailStore {
    /// Checks the whole chain: nil when it holds, else where it first breaks.
    public func verifyAuditTrail() async throws -> AuditBreak? {
        var check = AuditChainCheck()
        var found: AuditBreak?
        try await forEachAuditEntry { entry in
            found = check.next(entry)
            return found == nil
        }
        return found
    }
}
