import CareStore
import Consent
import Foundation
import StudyKitEnvironment
import Research
import Synchronization

/// A participant's study, without HTTP or HTML: enrolling, the onboarding gate, starting and resuming runs, applying a
/// step's answers, finishing a run (the consent sealed, the gate opened, answers mapped to outcomes, all in one
/// transaction), ticking off an event, and the day's cards. The web server, the terminal runner and any native client
/// drive a study through it, so that each validates and stores exactly the same way.
///
/// ```swift
/// let workflow = ParticipantWorkflow(study: study, data: database, environment: .live, consentKey: key)
/// let participant = try await workflow.enrol(invitationCode: code, timeZone: zone, language: "ja")
/// let run = try await workflow.startRun(taskID: StudyTaskDefinition.onboardingID, occurrence: nil, for: participant)
/// let applied = try await workflow.applyStep(to: run, for: participant) { session in /* answer the step */ nil as String? }
/// let feed = try await workflow.today(for: participant)
/// ```
///
/// Every call takes the participant, and every read of their data goes through their id: another participant's run is
/// simply not found. Refusals are ``StudyRefusal`` values.
public final class ParticipantWorkflow: Sendable {
    /// The loaded, checked study.
    public let study: StudyDefinition
    /// The study's stores, with one transaction per participant action.
    public let data: any StudyDataStore
    /// The clock and UUIDs.
    public let environment: StudyKitEnvironment
    /// Seals consent records.
    let consentKey: ConsentSigningKey
    /// Computes the scores of the study's FHIR Questionnaire surveys; nil when it has none.
    let calculator: (any TaskCalculator)?
    /// Participants known to have finished onboarding: an outcome is never taken back, so once seen it is kept and
    /// the gate asks the care store no more.
    private let onboardedParticipants = Mutex<Set<String>>([])
    /// Whether each participant is withdrawn, with the store's revision of them and their count of consent records when
    /// it was last checked (``StudyWithdrawal``).
    let withdrawals = Mutex<[String: (revision: UInt64, records: Int, withdrawn: Bool)]>([:])
    /// The calculator launched for each participant (``TaskCalculator/launched(for:)``), made on their first run and again
    /// once their onboarding is recorded (which gives their name and the answers ``StudyPatientFields`` reads).
    private let launchedCalculators = Mutex<[String: any TaskCalculator]>([:])
    /// Each participant's open runs as last read, with the study store's revision of their data read just before:
    /// a run's start, step and end each raise that revision, so the list is current while it stays the same.
    private let openRunsRead = KeptValues<String, (revision: UInt64, runs: [TaskRunSummary])>(capacity: 4_096)
    /// Participants' calendars by zone and language: one made for each pair, since a calendar made afresh looks up
    /// its locale's week rules again on first use.
    private let calendars = KeptValues<String, Calendar>(capacity: 1_024)
    /// The day and week last worked out in each participant calendar (by ``calendarKey(of:)``).
    private let recentDays = KeptValues<String, DayAndWeek>(capacity: 1_024)
    /// The ids of each participant's care tasks (the study's tasks, onboarding aside), made once per participant.
    private let careTaskIDs = KeptValues<String, Set<String>>(capacity: 4_096)

    /// A workflow over `data` for `study`; the files attached in runs are kept in `data`'s study store, beside the runs.
    public init(study: StudyDefinition, data: any StudyDataStore, environment: StudyKitEnvironment = .live, consentKey: ConsentSigningKey,
                calculator: (any TaskCalculator)? = nil) {
        self.study = study
        self.data = data
        self.environment = environment
        self.consentKey = consentKey
        self.calculator = calculator
    }

    // MARK: - Enrolment

    /// Enrols a participant with an invitation code (or none, for an open study): the participant, and their care plan
    /// anchored at today in their time zone, stored together.
    public func enrol(invitationCode: String?, timeZone: TimeZone, language: String) async throws -> StudyParticipant {
        if invitationCode == nil && study.enrolment != .open { throw StudyRefusal.invitationRequired }
        let enrolment = StudyEnrolment(study: study, environment: environment)
        do {
            return try await data.enrol(invitationCode: invitationCode, timeZone: timeZone, language: language) { participant in
                try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: participant.timeZone)
            }
        } catch let error as StudyStoreError {
            throw StudyRefusal(error) ?? error
        }
    }

    /// Whether an invitation code can still enrol someone.
    public func invitationIsUsable(_ code: String) async throws -> Bool {
        guard let invitation = try await data.studyStore.invitation(code: code) else { return false }
        return invitation.isUsable(at: environment.now())
    }

    /// Checks that an invitation code can still enrol someone; throws ``StudyRefusal/invitationUnusable`` when it
    /// cannot (unknown, used, expired or revoked), as ``enrol(invitationCode:timeZone:language:)`` would.
    public func requireUsableInvitation(_ code: String) async throws {
        guard try await invitationIsUsable(code) else { throw StudyRefusal.invitationUnusable }
    }

    /// Changes the participant's language to one the study offers.
    public func setLanguage(_ language: String, for participant: StudyParticipant) async throws -> StudyParticipant {
        guard let supported = study.supportedLanguage(for: language), supported == language else { throw StudyRefusal.notAStudyLanguage(language) }
        return try await data.studyStore.setLanguage(supported, participantID: participant.id)
    }

    // MARK: - May this participant do this now

    /// What a participant may ask to do with a task.
    public enum Action: Hashable, Sendable {
        /// Start or resume the onboarding.
        case startOnboarding
        /// Start or resume a survey for one event of its task.
        case startSurvey(task: String, occurrence: Int)
        /// Record, undo or add to the outcome of one event of a task without a survey, from its card.
        case changeOutcome(task: String, occurrence: Int)
        /// Take back a completed survey of one event: its outcome removed, its run kept as withdrawn.
        case withdrawSurvey(task: String, occurrence: Int)
        /// Read the events of the participant's days (a client's list of them): only once onboarded, as the daily
        /// page shows only the onboarding card before.
        case readEvents
    }

    /// Whether the participant has finished onboarding (the onboarding task has an outcome).
    public func isOnboarded(_ participant: StudyParticipant) async throws -> Bool {
        if onboardedParticipants.withLock({ $0.contains(participant.id) }) { return true }
        let onboarded = try await OnboardingGate(careStore: data.careStore, environment: environment).isOnboarded(participantID: participant.id)
        if onboarded { onboardedParticipants.withLock { _ = $0.insert(participant.id) } }
        return onboarded
    }

    /// Checks that the participant may do `action` now, and returns the event it is about (nil for the onboarding and
    /// for reading events); throws the ``StudyRefusal`` that says why not. The one place that keeps the gate (the
    /// onboarding first, and only once) and the schedule (an event of the participant's own plan, started, not yet
    /// done).
    @discardableResult
    public func check(_ action: Action, for participant: StudyParticipant) async throws -> CareEvent? {
        if try await withdrawal.isWithdrawn(participant) { throw StudyRefusal.withdrawn }
        let onboarded = try await isOnboarded(participant)
        switch action {
        case .startOnboarding:
            if onboarded { throw StudyRefusal.onboardingCompleted }
            return nil
        case .readEvents:
            guard onboarded else { throw StudyRefusal.onboardingRequired }
            return nil
        case .startSurvey(let task, let occurrence), .changeOutcome(let task, let occurrence), .withdrawSurvey(let task, let occurrence):
            if task == StudyTaskDefinition.onboardingID { throw StudyRefusal.onboardingHasNoEvents }
            let hasSurvey = study.survey(taskID: task) != nil
            let isAboutASurvey = if case .changeOutcome = action { false } else { true }
            guard let definition = study.task(id: task), hasSurvey == isAboutASurvey else { throw StudyRefusal.noSuchTask(task) }
            guard onboarded else { throw StudyRefusal.onboardingRequired }
            let event = try await event(taskID: task, occurrence: occurrence, for: participant)
            if case .startSurvey = action, event.outcome != nil { throw StudyRefusal.eventDone(task: task, occurrence: occurrence) }
            if case .withdrawSurvey = action, event.outcome == nil { throw StudyRefusal.eventNotDone(task: task, occurrence: occurrence) }
            let now = environment.now()
            guard event.scheduleEvent.start <= now else { throw StudyRefusal.eventNotDue(task: task, occurrence: occurrence) }
            guard Self.isOpen(event.scheduleEvent, allowsLateEntry: definition.allowsLateEntry, today: today(at: now, for: participant)) else {
                throw StudyRefusal.eventClosed(task: task, occurrence: occurrence)
            }
            return event
        }
    }

    /// Whether an event that has started may still be recorded or undone: it ends after the participant's today
    /// began, or its task allows late entry.
    static func isOpen(_ event: ScheduleEvent, allowsLateEntry: Bool, today: DateInterval) -> Bool {
        allowsLateEntry || event.end > today.start
    }

    /// The participant's calendar day around `now`.
    private func today(at now: Date, for participant: StudyParticipant) -> DateInterval {
        Self.day(containing: now, in: calendar(for: participant))
    }

    /// The event of one of the participant's care tasks; ``StudyRefusal/noSuchEvent(task:occurrence:)`` when the task
    /// or the occurrence is not theirs.
    public func event(taskID: String, occurrence: Int, for participant: StudyParticipant) async throws -> CareEvent {
        var query = CareQuery()
        query.ids = [StudyCareIdentifiers.taskID(participant: participant.id, task: taskID)]
        query.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
        guard let task = try await data.careStore.fetch(CareTask.self, query: query).first,
              let scheduled = task.schedule.event(occurrence: occurrence) else {
            throw StudyRefusal.noSuchEvent(task: taskID, occurrence: occurrence)
        }
        let window = DateInterval(start: scheduled.start, end: max(scheduled.end, scheduled.start.addingTimeInterval(1)))
        var eventQuery = CareQuery(for: window)
        eventQuery.ids = query.ids
        eventQuery.carePlanIDs = query.carePlanIDs
        guard let found = try await data.careStore.events(taskQuery: eventQuery, window: window)
            .first(where: { $0.scheduleEvent.occurrence == occurrence }) else {
            throw StudyRefusal.noSuchEvent(task: taskID, occurrence: occurrence)
        }
        return found
    }

    // MARK: - The participant's clock and tasks

    /// A Gregorian calendar in the participant's zone and language.
    public func calendar(for participant: StudyParticipant) -> Calendar {
        calendars.value(for: Self.calendarKey(of: participant)) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = participant.timeZone
            calendar.locale = Locale(identifier: participant.language)
            return calendar
        }
    }

    /// What a participant's calendar depends on: their zone and language.
    private static func calendarKey(of participant: StudyParticipant) -> String {
        participant.timeZone.identifier + " " + participant.language
    }

    /// The environment of a participant's runs: the workflow's clock, UUIDs and randomness, their zone and language.
    public func environment(for participant: StudyParticipant) -> StudyKitEnvironment {
        environment.with(calendar: calendar(for: participant), locale: Locale(identifier: participant.language))
    }

    /// The consent rendering context for a participant: their language, zone and the study's consent strings.
    public func consentContext(for participant: StudyParticipant) -> ConsentContext {
        ConsentContext(strings: study.strings.consent, language: participant.language, locale: Locale(identifier: participant.language),
                       timeZone: participant.timeZone, calendar: calendar(for: participant))
    }

    /// The onboarding task in the participant's language, its dates in their zone.
    public func onboardingTask(for participant: StudyParticipant) throws -> ConsentTask {
        try study.onboardingTask(language: participant.language, context: consentContext(for: participant))
    }

    /// The Research task a run of `taskID` follows: the onboarding, or the task's survey.
    public func researchTask(_ taskID: String, for participant: StudyParticipant) throws -> ResearchTask {
        if taskID == StudyTaskDefinition.onboardingID { return try onboardingTask(for: participant).task }
        guard let survey = study.survey(taskID: taskID, language: participant.language) else { throw StudyRefusal.noSuchTask(taskID) }
        return survey
    }

    // MARK: - Runs

    /// The participant's run still in progress for the onboarding (`occurrence` nil) or a survey's event, or a new one,
    /// once ``check(_:for:)`` allows it; returns the run's id.
    public func startRun(taskID: String, occurrence: Int?, for participant: StudyParticipant) async throws -> UUID {
        if taskID == StudyTaskDefinition.onboardingID {
            guard occurrence == nil else { throw StudyRefusal.onboardingHasNoEvents }
            try await check(.startOnboarding, for: participant)
        } else {
            guard let occurrence else { throw StudyRefusal.noSuchTask(taskID) }
            try await check(.startSurvey(task: taskID, occurrence: occurrence), for: participant)
        }
        let task = try researchTask(taskID, for: participant)
        // Only the open runs, as summaries: not every finished run of the task with its result.
        let open = try await data.studyStore.openRunSummaries(participantID: participant.id)
            .filter { $0.taskID == taskID && $0.occurrence == occurrence }
        if let resumable = open.max(by: { ($0.updatedAt ?? .distantPast) < ($1.updatedAt ?? .distantPast) }) { return resumable.id }
        // The run's files are written inside the transactions that apply its posts (``applyStep(to:for:_:)``).
        let session = try TaskSession(task: task, environment: environment(for: participant),
                                      calculator: try await calculator(for: participant), device: "web")
        let run = TaskRun(id: session.taskRunUUID, participantID: participant.id, taskID: taskID, occurrence: occurrence,
                          state: .inProgress, restorationData: session.restorationData)
        return try await data.studyStore.saveRun(run).id
    }

    /// The participant's run `runID` and, while it is in progress, its session restored; ``StudyRefusal/noSuchRun(_:)``
    /// for anyone else's run.
    public func run(_ runID: UUID, for participant: StudyParticipant) async throws -> (run: TaskRun, session: TaskSession?) {
        guard let run = try await data.studyStore.run(id: runID, participantID: participant.id) else { throw StudyRefusal.noSuchRun(runID) }
        return (run, try restoredSession(of: run, for: participant, calculator: try await calculator(for: participant), files: nil))
    }

    /// The step the participant's run `runID` is on; nil when it has ended or is not theirs.
    public func currentStep(of runID: UUID, for participant: StudyParticipant) async throws -> Step? {
        guard let run = try await data.studyStore.run(id: runID, participantID: participant.id),
              let stepID = run.restorationData?.path.last?.stepIdentifier else { return nil }
        return try researchTask(run.taskID, for: participant).step(withIdentifier: stepID)
    }

    /// The study's calculator for `participant`'s runs: it knows them as ``StudyPatientFields`` and their consent
    /// describe them (their patient id, the name they signed, the onboarding answers the study names). Made once per
    /// participant and kept.
    private func calculator(for participant: StudyParticipant) async throws -> (any TaskCalculator)? {
        guard let calculator else { return nil }
        if let launched = launchedCalculators.withLock({ $0[participant.id] }) { return launched }
        let consent = try await data.studyStore.consentRecords(participantID: participant.id)
            .last { $0.sealed.record.kind == .consent }?.sealed.record.signatures.first
        let onboarding = try await data.studyStore.runs(participantID: participant.id, taskID: StudyTaskDefinition.onboardingID)
            .first { $0.state == .completed }?.result
        let details = study.patientFields.details(patientID: participant.patientID,
                                                  signature: consent.map { ($0.givenName, $0.familyName) }, onboarding: onboarding)
        let launched = calculator.launched(for: details)
        launchedCalculators.withLock { $0[participant.id] = launched }
        return launched
    }

    /// The session of a run in progress, restored, with `files` for the files it writes (the run's, staged in a write
    /// transaction; nil for a session only shown); nil for a run that has ended.
    private func restoredSession(of run: TaskRun, for participant: StudyParticipant,
                                 calculator: (any TaskCalculator)?, files: (any RunFileStore)?) throws -> TaskSession? {
        guard run.state == .inProgress, let data = run.restorationData else { return nil }
        let task = try researchTask(run.taskID, for: participant)
        do {
            return try TaskSession(task: task, restoring: data, environment: environment(for: participant), calculator: calculator,
                                   files: files)
        } catch {
            throw StudyRefusal.runCannotBeResumed(run.id, reason: "\(error)")
        }
    }

    /// What applying a step's answers to a run came to.
    public enum StepApplication<Problems: Sendable>: Sendable {
        /// The answers had problems: nothing was saved; the session is at the step, with the answers applied, to show
        /// again with them.
        case refused(TaskSession, problems: Problems)
        /// The run moved on and was saved.
        case saved
        /// The run ended and was finished: stored whole with what it leaves behind.
        case finished(FinishedRun)
        /// Another request is finishing the run (a double tap, a second tab): this one changed nothing.
        case beingFinished
    }

    /// How a run ended, and what it left.
    public enum FinishedRun: Hashable, Sendable {
        /// The onboarding was completed: the run, the sealed consent record (when the study asks for consent) and the
        /// gate's outcome are stored together.
        case onboarding
        /// A survey was completed: the run and its outcome are stored together (the outcome kept from an earlier run
        /// when the event was done in the meantime).
        case survey(task: String)
        /// The participant left the run; it is kept as discarded.
        case discarded
    }

    /// Applies a step's answers to the participant's run `runID`: all or nothing. `apply` answers the current step of
    /// the restored session and returns the problems that keep it there (nil when there are none); it may throw
    /// ``StudyRefusal/staleStep(_:)``. An accepted step is saved before this returns; a step that ends the run
    /// finishes it (see ``FinishedRun``).
    ///
    /// The run is read, the answers applied and the run saved in one transaction of the store, so a second post for the
    /// same step finds the run moved on. A post that ends the run claims it inside that transaction
    /// (``StudyStore/updateRun(id:participantID:finisher:_:)``: a lease of ``RunFinisher/defaultLease`` in the store's
    /// database, so it holds across server processes), so a second one meanwhile, in this process or another, changes
    /// nothing (``StepApplication/beingFinished``). The claim is released once the finish has committed or failed; a
    /// finisher that died leaves it to lapse, and the run can then be finished by the participant's next post.
    public func applyStep<Problems: Sendable>(to runID: UUID, for participant: StudyParticipant,
                                              _ apply: @escaping @Sendable (inout TaskSession) throws -> Problems?) async throws
        -> StepApplication<Problems> {
        if try await withdrawal.isWithdrawn(participant) { throw StudyRefusal.withdrawn }
        let calculator = try await calculator(for: participant)
        let finisher = RunFinisher(id: environment.makeUUID())
        let update = try await data.studyStore.updateRun(id: runID, participantID: participant.id, finisher: finisher) { run, files
            -> (save: TaskRun?, value: PostedStep<Problems>, finishes: Bool) in
            guard var session = try self.restoredSession(of: run, for: participant, calculator: calculator, files: files) else {
                throw StudyRefusal.runEnded(run.id)
            }
            // Inside the transaction no other post of this run writes files: they are trimmed to what the run as saved
            // refers to (files let go by earlier posts), before this post writes.
            session.removeUnreferencedFiles()
            if let problems = try apply(&session) { return (nil, .refused(session, problems), false) }
            guard let reason = session.finishReason else {
                var saved = run
                saved.restorationData = session.restorationData
                return (saved, .saved, false)
            }
            return (nil, .finished(run, session, reason), true)
        }
        guard let update else { throw StudyRefusal.noSuchRun(runID) }
        guard case .changed(_, let posted, _) = update else { return .beingFinished }
        switch posted {
        case .refused(let session, let problems): return .refused(session, problems: problems)
        case .saved: return .saved
        case .finished(let run, let session, let reason):
            let finished: FinishedRun
            do {
                finished = try await finish(run, session: session, reason: reason, participant: participant)
            } catch {
                // A failed finish stored nothing: the run may be finished again at once, not only once the lease lapses.
                try? await data.studyStore.releaseRunFinish(id: run.id, finisher: finisher)
                throw error
            }
            // The finished run refuses any further post by its state; a release that fails only leaves a lease to lapse.
            try? await data.studyStore.releaseRunFinish(id: run.id, finisher: finisher)
            // The run has ended and nothing writes its files any more: keep those its result refers to.
            try await data.studyStore.keepOnlyRunFiles(session.referencedFileNames, ofRun: run.id, participantID: participant.id)
            return .finished(finished)
        }
    }

    /// What the store's transaction of ``applyStep(to:for:_:)`` came to.
    private enum PostedStep<Problems: Sendable>: Sendable {
        case refused(TaskSession, Problems)
        case saved
        case finished(TaskRun, TaskSession, FinishReason)
    }

    /// Ends a run in one transaction: a completed one with its result and what it leaves (the onboarding: the sealed
    /// consent and the gate's outcome; a survey: its outcome); any other ending keeps it as discarded.
    private func finish(_ run: TaskRun, session: TaskSession, reason: FinishReason, participant: StudyParticipant) async throws -> FinishedRun {
        var ended = run
        ended.restorationData = nil
        ended.result = session.result
        guard reason == .completed else {
            ended.state = .discarded
            _ = try await data.studyStore.saveRun(ended)
            return .discarded
        }
        ended.state = .completed
        var change = ParticipantChange(participantID: participant.id)
        change.runs = [ended]
        if run.taskID == StudyTaskDefinition.onboardingID {
            let consentTask = try onboardingTask(for: participant)
            if !consentTask.consentSteps.isEmpty {
                let builder = ConsentRecordBuilder(studyIdentifier: study.identifier, studyName: study.name, context: consentContext(for: participant))
                let recorder = ConsentRecorder(signingKey: consentKey, environment: environment)
                do {
                    change.consentRecords = [try builder.seal(run: session.result, finishReason: reason, of: consentTask,
                                                              participantIdentifier: participant.id, signerTimeZone: participant.timeZone,
                                                              recorder: recorder)]
                } catch let error as ConsentRecordBuildError {
                    throw StudyRefusal.consentCannotBeRecorded(reason: "\(error)")
                }
            }
            change.outcomes = [try await OnboardingGate(careStore: data.careStore, environment: environment)
                .completionOutcome(participantID: participant.id, timeZone: participant.timeZone)]
            _ = try await data.commit(change)
            onboardedParticipants.withLock { _ = $0.insert(participant.id) }
            launchedCalculators.withLock { _ = $0.removeValue(forKey: participant.id) }
            return .onboarding
        }
        if let occurrence = run.occurrence {
            change.outcomes = [try await SurveyOutcomeMapper(study: study, careStore: data.careStore, environment: environment)
                .outcome(of: session.result, taskID: run.taskID, occurrence: occurrence, participantID: participant.id,
                         timeZone: participant.timeZone)]
        }
        _ = try await data.commit(change)
        return .survey(task: run.taskID)
    }

    // MARK: - Outcomes from cards

    /// Records an event of a task without a survey as done (simple, instructions, grid and checklist cards): one
    /// boolean `completed` value. An event done already stays as it is.
    public func record(taskID: String, occurrence: Int, for participant: StudyParticipant) async throws {
        try requireCard(of: taskID, allowing: .record)
        try await check(.changeOutcome(task: taskID, occurrence: occurrence), for: participant)
        try await changeOutcome(taskID: taskID, occurrence: occurrence, for: participant) { values in
            values.isEmpty ? [self.stamped(StudyTaskDefinition.completedValue)] : nil
        }
    }

    /// Removes what was recorded for an event of a task without a survey (tapping a done card again, unticking a
    /// row); an event without an outcome stays as it is.
    public func removeOutcome(taskID: String, occurrence: Int, for participant: StudyParticipant) async throws {
        try requireCard(of: taskID, allowing: .removeOutcome)
        try await check(.changeOutcome(task: taskID, occurrence: occurrence), for: participant)
        try await changeOutcome(taskID: taskID, occurrence: occurrence, for: participant) { values in values.isEmpty ? nil : [] }
    }

    /// Adds the time now to an event's log (a button log card): one more `logged` value, its created date the time.
    public func log(taskID: String, occurrence: Int, for participant: StudyParticipant) async throws {
        try requireCard(of: taskID, allowing: .log)
        try await check(.changeOutcome(task: taskID, occurrence: occurrence), for: participant)
        try await changeOutcome(taskID: taskID, occurrence: occurrence, for: participant) { values in
            values + [self.stamped(OutcomeValue(.boolean(true), kind: StudyTaskDefinition.loggedKind))]
        }
    }

    /// Deletes the logged time recorded at `loggedAt` (to the millisecond) from an event's log; a time no longer
    /// there (deleted in another tab) changes nothing. The last one deleted removes the outcome.
    public func deleteLogEntry(taskID: String, occurrence: Int, loggedAt: Date, for participant: StudyParticipant) async throws {
        try requireCard(of: taskID, allowing: .deleteLogEntry)
        try await check(.changeOutcome(task: taskID, occurrence: occurrence), for: participant)
        try await changeOutcome(taskID: taskID, occurrence: occurrence, for: participant) { values in
            guard let index = values.firstIndex(where: { value in
                value.createdDate.map { Self.millisecond($0) == Self.millisecond(loggedAt) } ?? false
            }) else { return nil }
            var remaining = values
            remaining.remove(at: index)
            return remaining
        }
    }

    /// Adds a number the participant entered on a numeric card to the event's outcome, in the task's value kind and
    /// units; refused with ``StudyRefusal/valueNotAccepted(task:minimum:maximum:)`` outside the task's limits.
    public func enter(_ number: Double, taskID: String, occurrence: Int, for participant: StudyParticipant) async throws {
        try requireCard(of: taskID, allowing: .enterValue)
        guard let entry = study.task(id: taskID)?.valueEntry else { throw StudyRefusal.noSuchTask(taskID) }
        guard number.isFinite, number >= entry.minimum, number <= entry.maximum else {
            throw StudyRefusal.valueNotAccepted(task: taskID, minimum: entry.minimum, maximum: entry.maximum)
        }
        try await check(.changeOutcome(task: taskID, occurrence: occurrence), for: participant)
        let value = OutcomeValue.Value.number(number)
        try await changeOutcome(taskID: taskID, occurrence: occurrence, for: participant) { values in
            values + [self.stamped(OutcomeValue(value, kind: entry.kind, units: entry.units))]
        }
    }

    /// Refuses an action that the task's card does not offer (``StudyCardKind/actions``: a log entry on a simple card)
    /// as a task without it. Only a simple card turns into a grid on a day with more events; both allow the same.
    private func requireCard(of taskID: String, allowing action: StudyCardAction) throws {
        guard let kind = study.task(id: taskID)?.cardKind(eventsThatDay: 1), kind.allows(action) else { throw StudyRefusal.noSuchTask(taskID) }
    }

    /// Takes back the completed survey of an event from its card: its outcome is removed and the run that left it is
    /// kept, marked withdrawn, in one transaction; the event can then be taken again. Refused as
    /// ``StudyRefusal/eventNotDone(task:occurrence:)`` when the event has no outcome (withdrawn in another tab).
    public func withdrawSurvey(taskID: String, occurrence: Int, for participant: StudyParticipant) async throws {
        guard let event = try await check(.withdrawSurvey(task: taskID, occurrence: occurrence), for: participant),
              let outcome = event.outcome else { throw StudyRefusal.eventNotDone(task: taskID, occurrence: occurrence) }
        var change = ParticipantChange(participantID: participant.id)
        change.removedOutcomes = [outcome]
        if let runID = outcome.userInfo["taskRunUUID"].flatMap(UUID.init(uuidString:)),
           var run = try await data.studyStore.run(id: runID, participantID: participant.id), run.state == .completed {
            run.state = .withdrawn
            change.runs = [run]
        }
        do {
            _ = try await data.commit(change)
        } catch CareStoreError.outcomeNotFound {
            throw StudyRefusal.eventNotDone(task: taskID, occurrence: occurrence)
        }
    }

    /// `value` with the workflow's clock as its created date.
    private func stamped(_ value: OutcomeValue) -> OutcomeValue {
        var value = value
        value.createdDate = environment.now()
        return value
    }

    private static func millisecond(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// Reads the event's outcome values, asks `change` for the new ones (nil: leave it as it is; empty: remove the
    /// outcome) and writes them. Another tab writing the same event meanwhile makes the care store refuse the write
    /// (the outcome it replaces is gone, or the event has one already); the change is then made again on what that
    /// tab wrote, a few times at most.
    private func changeOutcome(taskID: String, occurrence: Int, for participant: StudyParticipant,
                               _ change: @Sendable ([OutcomeValue]) -> [OutcomeValue]?) async throws {
        let careStore = data.careStore
        for attempt in 1...Self.outcomeWriteAttempts {
            let event = try await event(taskID: taskID, occurrence: occurrence, for: participant)
            guard let values = change(event.outcome?.values ?? []) else { return }
            do {
                switch (event.outcome, values.isEmpty) {
                case (nil, true): return
                case (nil, false):
                    _ = try await careStore.addOutcomes([Outcome(taskUUID: event.task.version.uuid, occurrenceIndex: occurrence, values: values,
                                                                 uuid: environment.makeUUID(), timeZone: participant.timeZone,
                                                                 source: study.identifier)])
                case (let outcome?, true):
                    _ = try await careStore.deleteOutcomes([outcome])
                case (var outcome?, false):
                    outcome.values = values
                    _ = try await careStore.updateOutcomes([outcome])
                }
                return
            } catch CareStoreError.outcomeExists where attempt < Self.outcomeWriteAttempts {
            } catch CareStoreError.outcomeNotFound where attempt < Self.outcomeWriteAttempts {
            }
        }
    }

    /// How many times ``changeOutcome(taskID:occurrence:for:_:)`` reads and writes again after another tab's write.
    private static let outcomeWriteAttempts = 5

    // MARK: - The daily page

    /// The participant's cards of the day around `now` (the workflow's clock by default).
    public func today(for participant: StudyParticipant, at now: Date? = nil) async throws -> DayFeed {
        let now = now ?? environment.now()
        return try await day(containing: now, for: participant, at: now)
    }

    /// The participant's cards of the calendar day containing `date` in their zone, as they stand at `now` (the
    /// workflow's clock by default): one card per task with events that day, each event with its outcome, its
    /// progress and whether it can still be changed.
    public func day(containing date: Date, for participant: StudyParticipant, at now: Date? = nil) async throws -> DayFeed {
        let now = now ?? environment.now()
        let calendar = calendar(for: participant)
        let day = Self.day(containing: date, in: calendar)
        let today = Self.today(at: now, knowing: day, in: calendar)
        let openRuns = try await openRunSummaries(of: participant)
        guard try await isOnboarded(participant) else { return onboardingFeed(day: day, today: today, now: now, openRuns: openRuns) }
        let events = try await data.careStore.events(taskQuery: careTaskQuery(for: participant, window: day), window: day)
        return feed(of: day, events: events, today: today, now: now, openRuns: openRuns, for: participant)
    }

    /// The week containing `date` in the participant's calendar, with each day's completion ring as the care store's
    /// adherence gives it, and which day is their today (`now`, the workflow's clock by default).
    public func week(containing date: Date, for participant: StudyParticipant, at now: Date? = nil) async throws -> WeekStrip {
        let now = now ?? environment.now()
        let calendar = calendar(for: participant)
        let week = Self.week(containing: date, in: calendar)
        let adherence = try await data.careStore.adherence(taskQuery: careTaskQuery(for: participant, window: week), window: week,
                                                           calendar: calendar)
        return strip(of: week, adherence: adherence, today: Self.day(containing: now, in: calendar),
                     weekBefore: Self.weekBefore(week, in: calendar))
    }

    /// The daily page's data: the cards of the day containing `date` (as ``day(containing:for:at:)``) and, once the
    /// participant is through onboarding, the rings of its week (as ``week(containing:for:at:)``), both from one read
    /// of the care store.
    public func dailyPage(containing date: Date, for participant: StudyParticipant,
                          at now: Date? = nil) async throws -> (day: DayFeed, week: WeekStrip?) {
        let now = now ?? environment.now()
        let calendar = calendar(for: participant)
        let (day, week, weekBefore) = dayAndWeek(containing: date, for: participant, in: calendar)
        let today = Self.today(at: now, knowing: day, in: calendar)
        let openRuns = try await openRunSummaries(of: participant)
        guard try await isOnboarded(participant) else {
            return (onboardingFeed(day: day, today: today, now: now, openRuns: openRuns), nil)
        }
        let read = try await data.careStore.events(taskQuery: careTaskQuery(for: participant, window: week), window: day,
                                                   withAdherenceOver: week, calendar: calendar)
        return (feed(of: day, events: read.events, today: today, now: now, openRuns: openRuns, for: participant),
                strip(of: week, adherence: read.adherence, today: today, weekBefore: weekBefore))
    }

    /// The participant's open runs, read again only when the study store's revision of their data has changed.
    private func openRunSummaries(of participant: StudyParticipant) async throws -> [TaskRunSummary] {
        let revision = data.studyStore.revision(of: participant.id)
        if let kept = openRunsRead[participant.id], kept.revision == revision { return kept.runs }
        let runs = try await data.studyStore.openRunSummaries(participantID: participant.id)
        openRunsRead.keep((revision, runs), for: participant.id)
        return runs
    }

    private static func day(containing date: Date, in calendar: Calendar) -> DateInterval {
        // A Gregorian calendar always has the interval; the fallback only keeps the types honest.
        calendar.dateInterval(of: .day, for: date) ?? DateInterval(start: date, duration: 86_400)
    }

    private static func week(containing date: Date, in calendar: Calendar) -> DateInterval {
        calendar.dateInterval(of: .weekOfYear, for: date) ?? DateInterval(start: date, duration: 7 * 86_400)
    }

    /// The start of the same weekday a week before `week` starts.
    private static func weekBefore(_ week: DateInterval, in calendar: Calendar) -> Date {
        calendar.date(byAdding: .day, value: -7, to: week.start) ?? week.start
    }

    /// The day and the week containing a date, and when the week before starts.
    typealias DayAndWeek = (day: DateInterval, week: DateInterval, weekBefore: Date)

    /// The day and the week containing `date` in the participant's calendar: the last ones worked out for that
    /// calendar when its day contains `date` (every visit to today's page asks for the same), else worked out afresh.
    private func dayAndWeek(containing date: Date, for participant: StudyParticipant, in calendar: Calendar) -> DayAndWeek {
        let key = Self.calendarKey(of: participant)
        if let kept = recentDays[key], kept.day.start <= date, date < kept.day.end { return kept }
        let week = Self.week(containing: date, in: calendar)
        let days = (day: Self.day(containing: date, in: calendar), week: week, weekBefore: Self.weekBefore(week, in: calendar))
        recentDays.keep(days, for: key)
        return days
    }

    /// The day containing `now`: `day` itself when `now` falls in it (a visit to today's page), without the calendar.
    private static func today(at now: Date, knowing day: DateInterval, in calendar: Calendar) -> DateInterval {
        day.start <= now && now < day.end ? day : Self.day(containing: now, in: calendar)
    }

    /// The day before onboarding is done: only the onboarding card, resumed when a run of it is open.
    private func onboardingFeed(day: DateInterval, today: DateInterval, now: Date, openRuns: [TaskRunSummary]) -> DayFeed {
        let resumes = openRuns.contains { $0.taskID == StudyTaskDefinition.onboardingID }
        return DayFeed(day: day, today: today, now: now, onboarding: .required(resumes: resumes), cards: [], changesAt: today.end)
    }

    /// One card per study task with events in `day`, in order of its first event.
    private func feed(of day: DateInterval, events: [CareEvent], today: DateInterval, now: Date, openRuns: [TaskRunSummary],
                      for participant: StudyParticipant) -> DayFeed {
        var byTask: [String: [DayFeed.Event]] = [:]
        // The study task of each care task, found once per care task rather than once per event.
        var studyTasks: [String: (id: String, allowsLateEntry: Bool)?] = [:]
        // The events as they come (an event holds its whole task: no sorted copy of them); each card's are put in order
        // of start below.
        for event in events {
            let studyTask = studyTasks[event.task.id] ?? {
                let found = StudyCareIdentifiers.studyTaskID(careTaskID: event.task.id, participant: participant.id)
                    .flatMap { id in study.task(id: id).map { (id: id, allowsLateEntry: $0.allowsLateEntry) } }
                studyTasks[event.task.id] = .some(found)
                return found
            }()
            guard let (taskID, allowsLateEntry) = studyTask else { continue }
            let scheduled = event.scheduleEvent
            byTask[taskID, default: []].append(DayFeed.Event(
                occurrence: scheduled.occurrence, start: scheduled.start, end: scheduled.end, text: scheduled.text,
                targets: scheduled.targetValues, outcome: event.outcome, progress: event.progress,
                isOpen: scheduled.start <= now && Self.isOpen(scheduled, allowsLateEntry: allowsLateEntry, today: today),
                resumes: openRuns.contains { $0.taskID == taskID && $0.occurrence == scheduled.occurrence }))
        }
        // The participant's language: the cards' titles and instructions, and each event's text (as stored in their care
        // plan, in the study's first language) as that language words it.
        // (A participant reading the first language reads the texts as stored: nothing to look up on this hot path.)
        // The tasks are read in place, by index: a task definition copied whole for each card retains every text it holds.
        let translated = participant.language != study.defaultLanguage
        let sources = study.tasks
        let tasks = translated ? study.localized(participant.language).tasks : sources
        let cards = tasks.indices.compactMap { task -> DayFeed.Card? in
            guard var events = byTask[tasks[task].id], !events.isEmpty else { return nil }
            let inOrder: (DayFeed.Event, DayFeed.Event) -> Bool = { ($0.start, $0.occurrence) < ($1.start, $1.occurrence) }
            if zip(events, events.dropFirst()).contains(where: { inOrder($1, $0) }) { events.sort(by: inOrder) }
            if translated {
                let texts = Dictionary(zip(sources[task].schedule, tasks[task].schedule).compactMap { pair in pair.0.text.map { ($0, pair.1.text ?? $0) } },
                                       uniquingKeysWith: { first, _ in first })
                if !texts.isEmpty { for index in events.indices { events[index].text = events[index].text.map { texts[$0] ?? $0 } } }
            }
            return DayFeed.Card(taskID: tasks[task].id, title: tasks[task].title, instructions: tasks[task].instructions,
                                kind: tasks[task].cardKind(eventsThatDay: events.count), impactsAdherence: tasks[task].impactsAdherence,
                                valueEntry: tasks[task].valueEntry, events: events)
        }.sorted { ($0.events[0].start, $0.taskID) < ($1.events[0].start, $1.taskID) }
        return DayFeed(day: day, today: today, now: now, onboarding: .completed, cards: cards)
    }

    /// The week's rings from the care store's adherence of its days.
    private func strip(of week: DateInterval, adherence: [DailyAdherence], today: DateInterval, weekBefore: Date) -> WeekStrip {
        // The care store gives whole days, one after another: each ends where the next starts, the last with the week.
        let days = adherence.indices.map { index in
            let start = adherence[index].date
            let end = index + 1 < adherence.count ? adherence[index + 1].date : max(week.end, start)
            let day = DateInterval(start: start, end: end)
            let daily = adherence[index]
            return WeekStrip.Day(day: day, ring: WeekStrip.Ring(daily.state), isToday: day == today, isFuture: day.start >= today.end)
        }
        return WeekStrip(days: days, previousWeek: weekBefore, nextWeek: week.end)
    }

    /// A study chart's numbers over the participant's week or month around `date`: per day and series, the count of
    /// events with an outcome, the sum or mean of a value kind (the care store's insights), or the day's progress in
    /// percent as adherence counts it.
    public func chart(_ chart: StudyChart, containing date: Date, for participant: StudyParticipant) async throws -> ChartData {
        let calendar = calendar(for: participant)
        let unit: Calendar.Component = chart.period == .week ? .weekOfYear : .month
        let period = calendar.dateInterval(of: unit, for: date) ?? DateInterval(start: date, duration: 7 * 86_400)
        var days: [DateInterval] = []
        var start = period.start
        while start < period.end, let day = calendar.dateInterval(of: .day, for: start) {
            days.append(day)
            start = day.end
        }
        var series: [ChartData.Series] = []
        for definition in chart.series {
            let careTaskID = StudyCareIdentifiers.taskID(participant: participant.id, task: definition.taskID)
            let values: [Double?]
            switch definition.aggregate {
            case .count, .sum, .mean:
                let aggregate: InsightAggregate = switch definition.aggregate {
                case .count: .count
                case .sum: .sum
                default: .mean
                }
                let insights = try await data.careStore.insights(taskID: careTaskID, window: period, kind: definition.valueKind,
                                                                 aggregate: aggregate, calendar: calendar)
                values = days.map { day in insights.first { $0.date == day.start }?.value ?? (aggregate == .mean ? nil : 0) }
            case .progress:
                var query = CareQuery(for: period)
                query.ids = [careTaskID]
                let events = try await data.careStore.events(taskQuery: query, window: period)
                values = days.map { day in
                    let progress = events.filter { day.contains($0.scheduleEvent.start) && $0.scheduleEvent.start < day.end }
                        .map(\.progress.fractionCompleted)
                    return progress.isEmpty ? nil : 100 * progress.reduce(0, +) / Double(progress.count)
                }
            }
            series.append(ChartData.Series(definition: definition, values: values))
        }
        return ChartData(chart: chart, days: days, series: series, period: period,
                         previous: calendar.date(byAdding: unit, value: -1, to: period.start) ?? period.start, next: period.end)
    }

    /// The study team's contacts in the participant's care plan, in the study's order.
    public func contacts(for participant: StudyParticipant) async throws -> [(studyID: String, contact: Contact)] {
        var query = CareQuery()
        query.ids = Set(study.contacts.map { StudyCareIdentifiers.contactID(participant: participant.id, contact: $0.id) })
        let stored = try await data.careStore.fetch(Contact.self, query: query)
        // What the stored contact says in words (title, role, organization) as the participant's language says it.
        let localized = study.localized(participant.language).contacts
        return study.contacts.compactMap { definition in
            let id = StudyCareIdentifiers.contactID(participant: participant.id, contact: definition.id)
            guard var contact = stored.first(where: { $0.id == id }) else { return nil }
            if let words = localized.first(where: { $0.id == definition.id }) {
                contact.title = words.title ?? contact.title
                contact.role = words.role ?? contact.role
                contact.organization = words.organization ?? contact.organization
            }
            return (definition.id, contact)
        }
    }

    /// The participant's care tasks (not the onboarding) by their ids, which only their care plan has: one query for
    /// the task versions, where asking by care plan reads the plan, then the tasks under it, then their other versions.
    private func careTaskQuery(for participant: StudyParticipant, window: DateInterval) -> CareQuery {
        var query = CareQuery(for: window)
        query.ids = careTaskIDs.value(for: participant.id) {
            Set(study.tasks.lazy.filter { $0.id != StudyTaskDefinition.onboardingID }
                .map { StudyCareIdentifiers.taskID(participant: participant.id, task: $0.id) })
        }
        return query
    }
}
