import Foundation

/// A claim on something that one server process at a time should do, kept in the study's database until `until`: the
/// printing of a consent record's PDF, the finishing of a task run. Several processes over one database each try to
/// claim it (``StudyStorageWriter/claimLease(key:holder:until:at:)``): one gets it, the others leave the work. A
/// claim left by a process that died (`kill -9`, a lost machine) lapses with its lease, so the work is done later by
/// another; a claim is released (``StudyStorageWriter/releaseLease(key:holder:)``) once the work is done or failed.
///
/// Leases are operational rows, not study data: they are not in the audit trail, and losing them loses nothing but a
/// moment's exclusivity.
public struct StudyLease: Hashable, Sendable {
    /// What is claimed: ``consentPDFKey(_:)`` or ``runFinishKey(_:)``.
    public var key: String
    /// Who claimed it: one id per claim, so that only its holder releases it.
    public var holder: UUID
    /// When the claim lapses.
    public var until: Date

    /// A lease on `key`, held by `holder` until `until`.
    public init(key: String, holder: UUID, until: Date) {
        self.key = key
        self.holder = holder
        self.until = until
    }

    /// Whether the claim still holds at `now`.
    public func isLive(at now: Date) -> Bool { until > now }

    /// The key of the claim on printing the PDF of consent record `recordID`.
    public static func consentPDFKey(_ recordID: UUID) -> String { "consentPDF/" + recordID.uuidString.lowercased() }

    /// The key of the claim on finishing task run `runID`.
    public static func runFinishKey(_ runID: UUID) -> String { "runFinish/" + runID.uuidString.lowercased() }
}

/// Who finishes a task run, and for how long their claim on it holds: the finisher's claim is taken in the same
/// transaction as the read of the run's state (``StudyStore/updateRun(id:participantID:finisher:_:)``), so that of
/// several requests, in one process or several, exactly one finishes a run.
public struct RunFinisher: Hashable, Sendable {
    /// How long a finisher's claim holds by default: far longer than a finish takes (one transaction), short enough that
    /// a run whose finisher died can be finished again soon by the participant's next post.
    public static let defaultLease: TimeInterval = 120

    /// The claim's holder: one per request that may finish a run.
    public var id: UUID
    /// How long the claim holds, in seconds (more than 0).
    public var lease: TimeInterval

    /// A finisher `id` whose claim holds `lease` seconds.
    public init(id: UUID, lease: TimeInterval = RunFinisher.defaultLease) {
        self.id = id
        self.lease = lease
    }
}

/// What ``StudyStore/updateRun(id:participantID:finisher:_:)`` came to.
public enum RunUpdate<Value: Sendable>: Sendable {
    /// Another finisher's claim on the run is live: the change was not called and nothing was saved.
    case beingFinished
    /// The change ran: the run as saved (nil when it saved nothing), the change's value, and whether the finisher now
    /// holds the run's claim (the change asked to finish it), to release once the finish has committed or failed.
    case changed(saved: TaskRun?, value: Value, finishing: Bool)
}
