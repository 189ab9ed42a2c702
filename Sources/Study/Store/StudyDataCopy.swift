import CareStore
import Consent
import Foundation

/// A whole study's rows, read through one database's reader primitives and written verbatim (the same ids, timestamps,
/// states and bytes) through another's writer primitives, whichever backends they are: what `studykit migrate` moves
/// from the embedded SQLite file into PostgreSQL.
///
/// ```swift
/// let copy = try await StudyDataCopy.read(study: sqlite.sqliteStudyStore.storage,
///                                         researchers: sqlite.sqliteStudyStore.storage.researcherAccounts.storage,
///                                         care: sqlite.sqliteCareStore.storage)
/// // Inside one write transaction of the target, with its three writers:
/// try await copy.write(study: studyRows, researchers: researcherRows, care: careRows)
/// ```
///
/// What it copies: invitations (used and revoked ones as they are), participants, their sessions (with the SHA-256 of
/// each token, so that every participant stays signed in), their task runs in every state with restoration data and
/// result and their attached files, their consent records with the sealed bytes and the PDF's state (and bytes), their reminder channels,
/// choices and the outbox of deliveries, researchers with their password
/// hashes, and the care store's versions of every kind (each chain linked as it was) and outcomes, deleted ones too.
/// What it leaves out, as transient: sign-in codes (they live minutes, and no reader lists them), leases and the
/// sign-in attempt limits' buckets, researchers' password links, console sessions and tallies of wrong passwords
/// (no reader lists them: a researcher signs in again on the new database). The audit trail is the target database's
/// own business (its rows are copied by it, not through these primitives).
///
/// The copy is held in memory between the read and the write, so a write transaction run again (a serialization
/// failure) writes the same rows; a study's rows with its run files (each within a file question's size limit) fit.
public struct StudyDataCopy: Sendable {
    /// Every invitation, oldest first.
    public var invitations: [Invitation] = []
    /// Every participant, by enrolment time.
    public var participants: [StudyParticipant] = []
    /// Every participant's sessions with the SHA-256 of their tokens.
    public var sessions: [(session: ParticipantSession, tokenSHA256: String)] = []
    /// Every participant's runs, in every state, with restoration data and result.
    public var runs: [TaskRun] = []
    /// The files attached in every participant's runs.
    public var runFiles: [StoredRunFile] = []
    /// Every participant's consent records, in the order each participant's were stored, with their PDF's state.
    public var consentRecords: [StoredConsentRecord] = []
    /// Every participant's reminder channels.
    public var reminderChannels: [ReminderChannel] = []
    /// Every participant's choices about reminders (written with their enrolment time: the store keeps no other).
    public var reminderPreferences: [String: ReminderPreferences] = [:]
    /// The outbox's deliveries.
    public var reminderDeliveries: [ReminderDelivery] = []
    /// Every researcher, removed ones included.
    public var researchers: [Researcher] = []
    /// Every care store version of every kind, in an order where a version's parent and predecessor come first.
    public var versions: [StoredVersion] = []
    /// Every outcome, deleted ones included.
    public var outcomes: [Outcome] = []

    /// An empty copy.
    public init() {}

    /// Reads every row of a study through the readers of `study`, `researchers` and `care` (one read transaction each:
    /// nothing may write to the source meanwhile, which `studykit migrate` checks with the audit trail's end).
    public static func read(study: any StudyStorage, researchers: any ResearcherStorage, care: any CareStorage) async throws -> StudyDataCopy {
        var copy = try await study.read { reader -> StudyDataCopy in
            var copy = StudyDataCopy()
            copy.invitations = try await reader.invitations()
            copy.participants = try await reader.participants()
            for participant in copy.participants {
                copy.sessions += try await reader.sessionsWithTokenHashes(participantID: participant.id).reversed()
                copy.runs += try await reader.runs(participantID: participant.id, taskID: nil, state: nil).reversed()
                copy.runFiles += try await reader.runFiles(participantID: participant.id)
                copy.consentRecords += try await reader.consentRecords(participantID: participant.id)
            }
            copy.reminderChannels = try await reader.allReminderChannels()
            copy.reminderPreferences = try await reader.allReminderPreferences()
            copy.reminderDeliveries = try await reader.reminderDeliveries(dueSince: .distantPast)
            return copy
        }
        copy.researchers = try await researchers.read { reader in try await reader.researchers() }
        let (versions, outcomes) = try await care.read { reader -> ([StoredVersion], [Outcome]) in
            var versions: [StoredVersion] = []
            for kind in [EntityKind.patient, .carePlan, .contact, .task] {
                versions += try await reader.versions(of: kind, matching: StoredVersionFilter())
            }
            let outcomes = try await reader.outcomes(taskUUIDs: [], occurrences: nil, includeDeleted: true)
            return (versions, outcomes)
        }
        copy.versions = Self.dependenciesFirst(versions)
        copy.outcomes = outcomes.sorted {
            ($0.createdDate ?? .distantPast, $0.uuid.uuidString) < ($1.createdDate ?? .distantPast, $1.uuid.uuidString)
        }
        return copy
    }

    /// `versions` ordered so that each comes after the version it replaced and after its parent (when those are among
    /// them); otherwise by effective date, then UUID.
    static func dependenciesFirst(_ versions: [StoredVersion]) -> [StoredVersion] {
        let present = Set(versions.map(\.uuid))
        var placed = Set<UUID>(), ordered: [StoredVersion] = []
        var remaining = versions.sorted { ($0.effectiveDate, $0.uuid.uuidString) < ($1.effectiveDate, $1.uuid.uuidString) }
        while !remaining.isEmpty {
            var next: [StoredVersion] = []
            for version in remaining {
                let needs = [version.previousVersionUUID, version.parentUUID].compactMap { $0 }.filter { present.contains($0) && !placed.contains($0) }
                if needs.isEmpty {
                    ordered.append(version)
                    placed.insert(version.uuid)
                } else {
                    next.append(version)
                }
            }
            // A cycle (which no store writes) is placed as it is rather than looped over for ever.
            if next.count == remaining.count { return ordered + next }
            remaining = next
        }
        return ordered
    }

    /// Writes every row through the writers of one transaction of the target, verbatim: invitations and participants,
    /// then what the invitations' use and revocation record, sessions (revoked ones revoked at their time), runs, the
    /// care store's versions (then their links to the versions that replaced them) and outcomes (deleted ones as
    /// deleted), researchers, and consent records last (a withdrawal record after everything of its participant, which
    /// a database refuses once it is stored), each with its PDF's state. The target must be empty (``StudyDataCounts/nonEmptyTables``).
    public func write(study: any StudyStorageWriter, researchers: any ResearcherStorageWriter, care: any CareStorageWriter) async throws {
        for invitation in invitations {
            var unused = invitation
            unused.usedAt = nil
            unused.usedBy = nil
            unused.revokedAt = nil
            try await study.insert(unused)
        }
        for participant in participants { try await study.insert(participant) }
        for invitation in invitations {
            if let usedAt = invitation.usedAt, let usedBy = invitation.usedBy {
                guard try await study.claimInvitation(id: invitation.id, by: usedBy, at: usedAt) else {
                    throw StudyDataCopyError.notWrittenVerbatim("invitation \(invitation.id.uuidString.lowercased())")
                }
            }
            if let revokedAt = invitation.revokedAt { try await study.revokeInvitation(id: invitation.id, at: revokedAt) }
        }
        for (session, hash) in sessions {
            var live = session
            live.revokedAt = nil
            try await study.insert(live, tokenSHA256: hash)
            if let revokedAt = session.revokedAt {
                _ = try await study.revokeSession(id: session.id, participantID: session.participantID, at: revokedAt)
            }
        }
        for run in runs {
            let created = run.createdAt ?? run.updatedAt ?? Date(timeIntervalSince1970: 0)
            try await study.save(try EncodedTaskRun(run), createdAt: created, updatedAt: run.updatedAt ?? created)
        }
        for file in runFiles { try await study.putRunFile(file) }
        // Before the consent records: a withdrawal record closes its participant's rows to inserts.
        for channel in reminderChannels { try await study.insert(channel) }
        let enrolled = Dictionary(participants.map { ($0.id, $0.enrolledAt) }, uniquingKeysWith: { first, _ in first })
        for (participantID, preferences) in reminderPreferences.sorted(by: { $0.key < $1.key }) {
            try await study.setReminderPreferences(preferences, participantID: participantID, at: enrolled[participantID] ?? Date(timeIntervalSince1970: 0))
        }
        for delivery in reminderDeliveries { try await study.put(delivery) }
        for version in versions {
            var unlinked = version
            unlinked.nextVersionUUID = nil
            try await care.insert(unlinked)
        }
        for version in versions {
            if let next = version.nextVersionUUID { try await care.setNextVersion(of: version.uuid, to: next) }
        }
        try await care.insert(contentsOf: outcomes)
        for researcher in self.researchers {
            try await researchers.insert(researcher)
            guard try await researchers.update(researcher) else {
                throw StudyDataCopyError.notWrittenVerbatim("researcher \(researcher.id.uuidString.lowercased())")
            }
        }
        for record in consentRecords {
            var pending = record
            pending.pdf = .pending
            try await study.append(pending)
            if record.pdf != .pending { try await study.setConsentPDF(record.pdf, recordID: record.id, at: record.storedAt) }
        }
    }

    /// How many rows of each table the copy holds.
    public var counts: StudyDataCounts {
        var counts = StudyDataCounts()
        counts.set("invitation", invitations.count)
        counts.set("participant", participants.count)
        counts.set("session", sessions.count)
        counts.set("taskRun", runs.count)
        counts.set("runFile", runFiles.count)
        counts.set("consentRecord", consentRecords.count)
        counts.set("reminderChannel", reminderChannels.count)
        counts.set("reminderPreference", reminderPreferences.count)
        counts.set("reminderDelivery", reminderDeliveries.count)
        counts.set("consentPDF (printed)", consentRecords.filter { $0.pdf.name == "ready" }.count)
        counts.set("researcher", researchers.count)
        for kind in [EntityKind.patient, .carePlan, .contact, .task] {
            counts.set("version (\(kind.rawValue))", versions.filter { $0.kind == kind }.count)
        }
        counts.set("outcome", outcomes.count)
        counts.set("outcome (deleted)", outcomes.filter { $0.deletedDate != nil }.count)
        return counts
    }

    /// The problems of the copy's consent records against the study's signing key, as the server's check at start and
    /// the export name them (``StudyExportReader/verified(_:key:)``); empty when every record verifies.
    public func consentProblems(key: ConsentPublicKey) -> [String] {
        let byParticipant = Dictionary(grouping: consentRecords, by: \.participantID)
        return byParticipant.keys.sorted().flatMap { StudyExportReader.verified(byParticipant[$0] ?? [], key: key).1 }
    }
}

/// How many rows of each table a study holds, in a fixed order of tables: what `studykit migrate` prints for the source
/// and the target, which must be equal.
public struct StudyDataCounts: Hashable, Sendable {
    /// Each table's name and count, in the order they were set.
    public private(set) var tables: [(name: String, count: Int)] = []

    /// No tables.
    public init() {}

    /// Sets the count of `table`, adding it at the end when it is new.
    public mutating func set(_ table: String, _ count: Int) {
        if let index = tables.firstIndex(where: { $0.name == table }) { tables[index].count = count } else { tables.append((table, count)) }
    }

    /// The count of `table`; 0 when it was never set.
    public subscript(table: String) -> Int { tables.first { $0.name == table }?.count ?? 0 }

    /// The tables with rows, as `name (count)`: what a copy into this database would collide with.
    public var nonEmptyTables: [String] { tables.filter { $0.count > 0 }.map { "\($0.name) (\($0.count))" } }

    public static func == (lhs: StudyDataCounts, rhs: StudyDataCounts) -> Bool {
        lhs.tables.map(\.name) == rhs.tables.map(\.name) && lhs.tables.map(\.count) == rhs.tables.map(\.count)
    }

    public func hash(into hasher: inout Hasher) {
        for (name, count) in tables {
            hasher.combine(name)
            hasher.combine(count)
        }
    }
}

/// Why a study's rows could not be copied.
public enum StudyDataCopyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The target did not take a row as the source has it.
    case notWrittenVerbatim(String)
    /// The target holds rows already.
    case targetNotEmpty([String])

    public var description: String {
        switch self {
        case .notWrittenVerbatim(let row): "the target did not store \(row) as the source has it"
        case .targetNotEmpty(let tables):
            "the target already holds study data: \(tables.joined(separator: ", ")); migrate only into an empty database (nothing was written)"
        }
    }
}
