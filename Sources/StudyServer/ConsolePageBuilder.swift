import CareStore
import Consent
import Foundation
import Research
import Study
import StudyKitEnvironment
import StudyWeb

/// The console's pages from the stores: the enrolment overview and a participant's page. A participant's answers
/// and outcomes are the rows the CSV exports write (``CSVLongExporter/rows(of:)``, ``CSVOutcomesExporter/rows(of:)``),
/// so the console and an export never disagree; consent records are verified as the page is made.
struct ConsolePageBuilder {
    /// What the console's pages read: the study, its stores and audit trail, the consent key that verifies records.
    protocol Service: Sendable {
        /// The study the server runs.
        var study: StudyDefinition { get }
        /// Participants, invitations, sessions, runs and consent records.
        var store: any StudyStore { get }
        /// Care plans, tasks, events and outcomes.
        var careStore: any CareStore { get }
        /// The study's database, for its audit trail.
        var data: any StudyDatabase { get }
        /// The participant's rules (whether a consent awaits countersigning).
        var workflow: ParticipantWorkflow { get }
        /// The clock, calendar and time zone the server runs on.
        var environment: StudyKitEnvironment { get }
        /// The server's configuration (its data folder, which the export reader names).
        var configuration: StudyServerConfiguration { get }
        /// The key consent records are sealed with.
        var consentKey: ConsentSigningKey { get }
    }

    let service: any Service

    /// How many weeks of adherence a participant's page shows.
    static let adherenceWeeks = 4

    /// The enrolment page: counts, one row per participant, and the exports.
    func enrolment() async throws -> ConsoleEnrolmentView {
        let store = service.store
        let invitations = try await store.invitations()
        let labels = Dictionary(invitations.map { ($0.id, $0.label ?? "") }, uniquingKeysWith: { first, _ in first })
        let now = service.environment.now()
        var rows: [ConsoleParticipantRowView] = []
        var consented = 0, withdrawn = 0
        for participant in try await store.participants() {
            let records = try await store.consentRecords(participantID: participant.id)
            let state = Self.consentState(records)
            switch state {
            case .consented: consented += 1
            case .withdrawn: withdrawn += 1
            case .none: break
            }
            let runs = try await store.runSummaries(participantID: participant.id)
            let completed = runs.filter { $0.state == .completed }.count
            let last = runs.compactMap(\.updatedAt).max()
            let zone = participant.timeZone
            rows.append(ConsoleParticipantRowView(
                href: "/console/participants/" + URLPath.encoded(participant.id), id: participant.id,
                invitation: participant.invitationID.map { labels[$0].map { $0.isEmpty ? "(no label)" : $0 } ?? "" } ?? "open enrolment",
                enrolled: ISO8601.string(from: participant.enrolledAt, in: zone), consent: Self.text(of: state, zone: zone),
                completedRuns: String(completed), lastActivity: last.map { ISO8601.string(from: $0, in: zone) } ?? "none"))
        }
        let unused = invitations.filter { $0.usedAt == nil && ($0.expiresAt.map { $0 > now } ?? true) }.count
        let counts = [
            ConsoleCountView(label: "Invitations not yet used", value: String(unused)),
            ConsoleCountView(label: "Enrolled", value: String(rows.count)),
            ConsoleCountView(label: "Consented", value: String(consented)),
            ConsoleCountView(label: "Withdrawn", value: String(withdrawn)),
        ]
        let exports = StudyExportFormat.allCases.map { format in
            ConsoleLinkView(href: "/console/exports/" + format.rawValue, label: Self.exportLabels[format] ?? format.rawValue)
        }
        let formats = StudyExportFormat.allCases.map { format in
            ConsoleOptionView(value: format.rawValue, label: Self.exportLabels[format] ?? format.rawValue, selected: format == .csvLong)
        }
        return ConsoleEnrolmentView(counts: counts, participants: rows, exports: exports, exportAction: "/console/exports", exportFormats: formats)
    }

    static let exportLabels: [StudyExportFormat: String] = [
        .csvLong: "CSV, one row per answer (csv-long)",
        .csvWide: "CSV, one row per run, with a REDCap data dictionary (csv-wide)",
        .outcomes: "Outcomes CSV (outcomes)",
        .reminders: "Reminders sent CSV (reminders)",
        .json: "JSON lines, with attached files (json)",
        .consents: "Signed consent PDFs with their records (consents)",
        .fhir: "FHIR R4 bundles and NDJSON (fhir)",
    ]

    /// Where a participant's consent stands: their last consent record, and what refers to it.
    enum ConsentState {
        case none
        case consented(Date, countersigned: Date?)
        case withdrawn(Date)
    }

    static func consentState(_ records: [StoredConsentRecord]) -> ConsentState {
        guard let last = records.last(where: { $0.sealed.record.kind == .consent }) else { return .none }
        let referring = records.filter { $0.sealed.record.linkedRecordID == last.id }
        if let withdrawal = referring.first(where: { $0.sealed.record.kind == .withdrawal }) { return .withdrawn(withdrawal.sealed.record.createdAt) }
        return .consented(last.sealed.record.createdAt,
                          countersigned: referring.first { $0.sealed.record.kind == .countersignature }?.sealed.record.createdAt)
    }

    private static func text(of state: ConsentState, zone: TimeZone) -> String {
        switch state {
        case .none: "not yet"
        case .consented(let date, let countersigned):
            "consented " + ISO8601.string(from: date, in: zone) + (countersigned.map { ", countersigned " + ISO8601.string(from: $0, in: zone) } ?? "")
        case .withdrawn(let date): "withdrawn " + ISO8601.string(from: date, in: zone)
        }
    }

    /// A participant's page: who they are, each consent record with its verification now, four weeks of adherence,
    /// every run with its answers, and their outcomes.
    ///
    /// A consent that waits for the study team's countersignature shows the form to give it when `canCountersign`;
    /// `countersignError` is the refusal of the last try, by record.
    func participant(_ participant: StudyParticipant, canCountersign: Bool = false, countersignError: (record: UUID, message: String)? = nil,
                     canRecordWithdrawal: Bool = false, withdrawalError: String? = nil) async throws -> ConsoleParticipantView {
        // Contact details are shown to the roles that act on a participant's consent; a viewer sees kinds and states.
        let showsAddresses = canRecordWithdrawal
        let reader = StudyExportReader(study: service.study, store: service.store, careStore: service.careStore, dataFolder: service.configuration.dataFolder,
                                       consentPublicKey: service.consentKey.publicKey, now: service.environment.now)
        let data = try await reader.data(of: participant)
        let zone = participant.timeZone
        let records = try await service.store.consentRecords(participantID: participant.id)
        let verifier = ConsentRecordVerifier(expectedPublicKey: service.consentKey.publicKey)
        let consents = records.map { stored in
            let record = stored.sealed.record
            let original = stored.linkedOriginal(among: records)
            let mismatches = verifier.mismatches(in: stored.sealed, original: original)
            let pdf: ConsoleLinkView?, note: String?
            switch stored.pdf {
            case .stored, .file:
                if mismatches.isEmpty {
                    pdf = ConsoleLinkView(href: "/console/participants/\(URLPath.encoded(participant.id))/consents/\(record.id.uuidString.lowercased())/pdf",
                                          label: "Open the signed PDF")
                    note = nil
                } else {
                    (pdf, note) = (nil, "The PDF is not served while the record does not verify.")
                }
            case .pending: (pdf, note) = (nil, "The PDF is being printed.")
            case .failed(let reason): (pdf, note) = (nil, "Printing the PDF failed: \(reason)")
            }
            let awaits = mismatches.isEmpty && service.workflow.countersigner.awaitsCountersignature(stored, among: records)
            let meaning = service.study.consentDocument(language: record.language).signatures.first(where: \.signedInConsole)?.meaning ?? ""
            let id = record.id.uuidString.lowercased()
            return ConsoleConsentRecordView(
                kind: record.kind.rawValue.prefix(1).uppercased() + record.kind.rawValue.dropFirst(), signedAt: ISO8601.string(from: record.createdAt, in: zone),
                document: "\(record.documentIdentifier), version \(record.documentVersion), in \(record.language)",
                signers: record.signatures.map { "\($0.givenName) \($0.familyName) (\($0.meaning))" }.joined(separator: ", "),
                verified: mismatches.isEmpty,
                verification: mismatches.isEmpty ? "Verified: sealed with the study's key and unchanged since."
                    : "Does not verify: " + mismatches.map(\.description).joined(separator: "; "),
                pdf: pdf, pdfNote: note,
                countersign: awaits && canCountersign
                    ? ConsoleCountersignView(action: "/console/participants/\(URLPath.encoded(participant.id))/consents/\(id)/countersign", id: "cs-\(id)",
                                             meaning: meaning, error: countersignError?.record == record.id ? countersignError?.message : nil)
                    : nil,
                awaiting: awaits && !canCountersign ? "Waits for an investigator's countersignature." : nil)
        }
        let facts = [
            ConsoleCountView(label: "Enrolled", value: ISO8601.string(from: participant.enrolledAt, in: zone)),
            ConsoleCountView(label: "Time zone", value: zone.identifier),
            ConsoleCountView(label: "Language", value: participant.language),
            ConsoleCountView(label: "Consent", value: Self.text(of: Self.consentState(records), zone: zone)),
        ]
        var view = ConsoleParticipantView(id: participant.id, facts: facts, problems: data.problems.filter { !$0.contains("consent record") },
                                          consents: consents, weekdays: weekdays, adherence: try await adherence(of: participant),
                                          runs: runs(of: data), outcomes: outcomes(of: data), audit: try await audit(of: participant))
        view.taskAdherence = try await taskAdherence(of: participant)
        view.reminderChannels = try await reminderChannels(of: participant, showingAddresses: showsAddresses)
        view.reminderDeliveries = ConsoleTableView(caption: "Reminders sent, failed and skipped", headings: Array(CSVRemindersExporter.columns[1...]),
                                                   rows: CSVRemindersExporter.rows(of: data).map { Array($0[1...]) }, empty: "No reminder yet.")
        if canRecordWithdrawal, case .consented = Self.consentState(records) {
            let rule: String? = switch service.study.withdrawal {
            case .keep: "What was collected stays, as the study's consent says."
            case .delete: "Their answers and outcomes are deleted, as the study's rule says; the consent records stay."
            case .participantChooses: nil
            }
            view.withdraw = ConsoleWithdrawView(action: "/console/participants/\(URLPath.encoded(participant.id))/withdraw", error: withdrawalError,
                                                dataRule: rule, asksDataChoice: service.study.withdrawal == .participantChooses)
        }
        return view
    }

    /// The participant's reminder channels: kind, address (or only that there is one), state, when added.
    private func reminderChannels(of participant: StudyParticipant, showingAddresses: Bool) async throws -> ConsoleTableView {
        let preferences = try await service.store.reminderPreferences(participantID: participant.id)
        let on = service.study.reminders.filter(preferences.isOn).map(\.id)
        let rows = try await service.store.reminderChannels(participantID: participant.id).map { channel -> [String] in
            let address = channel.kind == .calendar ? "" : showingAddresses ? channel.address ?? "" : "(hidden for your role)"
            return [channel.kind.rawValue, address, channel.isConfirmed ? "confirmed" : "waiting for confirmation",
                    ISO8601.string(from: channel.createdAt, in: participant.timeZone)]
        }
        let caption = "Channels (reminders on: \(on.isEmpty ? "none" : on.joined(separator: ", "))\(preferences.paused ? "; paused" : ""))"
        return ConsoleTableView(caption: caption, headings: ["channel", "address", "state", "added"], rows: rows, empty: "No channel: no reminder reaches them.")
    }

    private var weekdays: [String] { ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] }

    /// The last ``adherenceWeeks`` weeks, Monday to Sunday in the participant's zone, as the care store computes them.
    private func adherence(of participant: StudyParticipant) async throws -> [ConsoleAdherenceWeekView] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = participant.timeZone
        calendar.firstWeekday = 2
        let now = service.environment.now()
        guard let thisWeek = calendar.dateInterval(of: .weekOfYear, for: now),
              let start = calendar.date(byAdding: .weekOfYear, value: -(Self.adherenceWeeks - 1), to: thisWeek.start) else { return [] }
        var query = CareQuery()
        query.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
        let days = try await service.careStore.adherence(taskQuery: query, window: DateInterval(start: start, end: thisWeek.end), calendar: calendar)
        let cells = days.map { day -> ConsoleAdherenceDayView in
            let date = ISO8601.string(from: day.date, in: participant.timeZone).prefix(10)
            if day.date > now { return ConsoleAdherenceDayView(date: String(date), text: "", level: "off") }
            switch day.state {
            case .noTasks: return ConsoleAdherenceDayView(date: String(date), text: "no tasks", level: "off")
            case .noEvents: return ConsoleAdherenceDayView(date: String(date), text: "no events", level: "off")
            case .progress(let share):
                let percent = Int((share * 100).rounded())
                return ConsoleAdherenceDayView(date: String(date), text: "\(percent) %", level: percent >= 100 ? "full" : percent > 0 ? "some" : "none")
            }
        }
        return stride(from: 0, to: cells.count, by: 7).map { ConsoleAdherenceWeekView(days: Array(cells[$0..<min($0 + 7, cells.count)])) }
    }

    /// Each study task's adherence over the 7 and the 28 whole days before today in the participant's zone (today,
    /// whose later events are still to come, left out), as the care store counts it for that task alone
    /// (``CareStore/adherenceByTask(taskQuery:window:calendar:includingAll:)``), with whether it is in their rings.
    private func taskAdherence(of participant: StudyParticipant) async throws -> ConsoleTableView {
        let calendar = service.workflow.calendar(for: participant)
        let today = calendar.startOfDay(for: service.environment.now())
        let start = calendar.date(byAdding: .day, value: -28, to: today) ?? today
        let rows = try await service.careStore.adherenceByStudyTask(participant: participant.id, tasks: service.study.tasks,
                                                                    window: DateInterval(start: start, end: today), calendar: calendar).map { task, days in
            [task.title, task.impactsAdherence ? "yes" : "no", Self.share(of: days.suffix(7)), Self.share(of: days)]
        }
        return ConsoleTableView(caption: "Adherence per task, whole days before today", headings: ["task", "in the rings", "last 7 days", "last 28 days"],
                                rows: rows, empty: "No task was in effect in the four weeks before today.")
    }

    /// The mean of `days`' shares over those that had events, in whole percent, with how many days had events; or
    /// that none had.
    static func share(of days: some Collection<DailyAdherence>) -> String {
        let shares = days.compactMap { day -> Double? in
            if case .progress(let share) = day.state { share } else { nil }
        }
        guard !shares.isEmpty else { return "no events" }
        let percent = Int((shares.reduce(0, +) / Double(shares.count) * 100).rounded())
        return "\(percent) % (\(shares.count) day\(shares.count == 1 ? "" : "s") with events)"
    }

    /// Each run, newest first, with the rows of its answers in the CSV long export.
    private func runs(of data: ParticipantExportData) -> [ConsoleRunView] {
        let zone = data.participant.timeZone
        let titles = Dictionary(service.study.tasks.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        var answers: [String: [[String]]] = [:]
        for row in CSVLongExporter.rows(of: data) { answers[row[3], default: []].append(Array(row[5...])) }
        let headings = Array(CSVLongExporter.columns[5...])
        return data.runsOldestFirst.reversed().map { run in
            let id = run.id.uuidString.lowercased()
            let title = run.taskID == StudyTaskDefinition.onboardingID ? "Onboarding" : titles[run.taskID] ?? run.taskID
            let times = [run.createdAt.map { "started " + ISO8601.string(from: $0, in: zone) }, run.updatedAt.map { "last saved " + ISO8601.string(from: $0, in: zone) }]
            return ConsoleRunView(id: id, heading: "\(title)\(run.occurrence.map { ", event \($0)" } ?? "") – \(run.state.rawValue)",
                                  details: (["run \(id)"] + times.compactMap { $0 }).joined(separator: ", "),
                                  answers: ConsoleTableView(caption: "Answers of run \(id)", headings: headings, rows: answers[id] ?? [],
                                                            empty: run.result == nil ? "No answer yet." : "No answer in this run (signatures and files are in the JSON export)."))
        }
    }

    /// How many rows of a participant's audit trail their page shows.
    static let auditRows = 100

    /// The newest rows of the audit trail of the participant's data.
    private func audit(of participant: StudyParticipant) async throws -> ConsoleTableView {
        let rows = try await service.data.auditEntries(participantID: participant.id, limit: Self.auditRows).map { entry in
            [String(entry.sequence), ISO8601.string(from: entry.at, in: .gmt), entry.actor, "\(entry.action) \(entry.entity)", entry.entityID ?? "",
             entry.reason ?? ""]
        }
        return ConsoleTableView(caption: "The newest \(Self.auditRows) changes at most; `studykit audit list` prints them all",
                                headings: ["row", "when (UTC)", "who", "what", "which", "why"], rows: rows, empty: "No change recorded.")
    }

    /// The participant's outcomes, as the outcomes CSV writes them.
    private func outcomes(of data: ParticipantExportData) -> ConsoleTableView {
        ConsoleTableView(caption: "Outcomes", headings: Array(CSVOutcomesExporter.columns[1...]), rows: CSVOutcomesExporter.rows(of: data).map { Array($0[1...]) },
                         empty: "No outcome yet.")
    }
}

extension StudyService: ConsolePageBuilder.Service {}
