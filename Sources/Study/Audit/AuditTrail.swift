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

    /// The hash of a row: HMAC-SHA-256 with the trail's `key` (plain SHA-256 without one, as rows written before the
    /// trail was keyed are), in lowercase hex, of `previousHash` and each field, each written as `N` when absent or as
    /// `S`, its UTF-8 length, `:` and its bytes, so that no two different rows hash alike. Without the key, which the
    /// database never holds, no one can write a row (or rewrite the chain) that verifies.
    public static func hash(previousHash: String, of fields: [String?], key: AuditKey? = nil) -> String {
        var bytes = Data()
        func add(_ text: String?) {
            guard let text else { return bytes.append(contentsOf: "N".utf8) }
            let utf8 = Data(text.utf8)
            bytes.append(contentsOf: "S\(utf8.count):".utf8)
            bytes.append(utf8)
        }
        add(previousHash)
        for field in fields { add(field) }
        guard let key else { return hex(SHA256.hash(data: bytes)) }
        return hex(HMAC<SHA256>.authenticationCode(for: bytes, using: key.symmetricKey))
    }

    /// What the trail keeps of a value a participant gave (an answer, a run's result): its HMAC-SHA-256 under the
    /// trail's key, cut to its first 128 bits (32 lowercase hex digits, as RFC 2104 allows), which is plenty to tell
    /// one value from another and half the bytes. It proves what was stored without keeping it, so a participant's
    /// data deleted from the study leaves nothing readable in the trail, and a short answer cannot be found by trying
    /// every value without the key.
    public static func digest(of value: Data, key: AuditKey) -> String {
        hex(HMAC<SHA256>.authenticationCode(for: value, using: key.symmetricKey).prefix(16))
    }

    private static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
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
/// first), its hash is that of its fields (keyed from ``keyedFromSequence`` on), and the sequence runs 1, 2, 3…
/// without a gap. With an ``AuditAnchor``, the trail must also reach the anchor's row and that row must hash as the
/// anchor says (``finish()``), so a cut tail is caught.
public struct AuditChainCheck: Sendable {
    private var previousHash = ""
    private var expectedSequence: Int64 = 1
    /// The trail's key; nil checks every row as unkeyed.
    let key: AuditKey?
    /// The first row hashed with the key: rows before it were written before the trail was keyed.
    let keyedFromSequence: Int64
    /// The latest anchor, whose row the trail must reach with the hash it names.
    let anchor: AuditAnchor?

    /// A check of an unkeyed, unanchored trail (rows written before StudyKit keyed its trail).
    public init() {
        key = nil
        keyedFromSequence = .max
        anchor = nil
    }

    /// A check of a keyed trail against its latest `anchor` (none for a trail that is not anchored, as one in memory):
    /// rows from `keyedFromSequence` (by default the anchor's ``AuditAnchor/keyedFromSequence``, or the first row) on
    /// are hashed with `key`.
    public init(key: AuditKey, anchor: AuditAnchor?, keyedFromSequence: Int64? = nil) {
        self.key = key
        self.keyedFromSequence = keyedFromSequence ?? anchor?.keyedFromSequence ?? 1
        self.anchor = anchor
    }

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
        let keyed = entry.sequence >= keyedFromSequence
        let computed = AuditTrail.hash(previousHash: entry.previousHash, of: entry.hashedFields, key: keyed ? key : nil)
        if computed != entry.hash {
            return AuditBreak(sequence: entry.sequence, problem: keyed
                ? "it was not written by StudyKit with this trail's key, or its content was changed since: its keyed hash is \(computed.prefix(12))…, "
                    + "not its stored \(entry.hash.prefix(12))…"
                : "its content was changed: it hashes to \(computed.prefix(12))…, not to its stored \(entry.hash.prefix(12))…")
        }
        if let anchor, entry.sequence == anchor.sequence, entry.hash != anchor.hash {
            return AuditBreak(sequence: entry.sequence, problem: "the anchor written at \(anchor.writtenAt) names this row with the hash "
                + "\(anchor.hash.prefix(12))…, and the row hashes to \(entry.hash.prefix(12))…: the trail was rewritten up to here")
        }
        previousHash = entry.hash
        expectedSequence += 1
        return nil
    }

    /// The problem with the trail ending where the check stopped: it must reach its anchor's row. Nil when it does (or
    /// when there is no anchor).
    public func finish() -> AuditBreak? {
        guard let anchor, anchor.sequence >= expectedSequence else { return nil }
        return AuditBreak(sequence: expectedSequence, problem: "the trail ends at row \(expectedSequence - 1), and its anchor written at "
            + "\(anchor.writtenAt) names row \(anchor.sequence): rows \(expectedSequence) to \(anchor.sequence) were removed")
    }

    /// How many rows held so far.
    public var rowsChecked: Int64 { expectedSequence - 1 }
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
    /// Checks the whole chain with `check`: nil when it holds, else where it first breaks.
    public func verifyAuditTrail(_ check: AuditChainCheck) async throws -> AuditBreak? {
        var check = check
        var found: AuditBreak?
        try await forEachAuditEntry { entry in
            found = check.next(entry)
            return found == nil
        }
        return found ?? check.finish()
    }

    /// Appends the row that records a re-anchoring (after a restore from a backup older than the anchor, or a lost
    /// anchor): `reason` and the row anchored at, with the anchor it replaced, as the current ``AuditTrail/source``
    /// with the reason added to its own.
    public func appendReanchoring(reason: String, anchoredAt sequence: Int64, replaced previous: AuditAnchor?) async throws {
        var record: [String: Any] = ["reason": reason, "anchoredAt": sequence]
        if let previous { record["replaced"] = ["sequence": previous.sequence, "hash": previous.hash, "writtenAt": previous.writtenAt] }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
        var source = AuditTrail.source
        source.reason = [source.reason, reason].compactMap { $0 }.joined(separator: "; ")
        try await AuditTrail.$source.withValue(source) {
            try await appendAudit(action: "reanchor", entity: "auditTrail", entityID: nil, participantID: nil, after: json)
        }
    }
}
