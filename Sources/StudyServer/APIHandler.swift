import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime
import Research
import Study
import StudyKitEnvironment
import StudyServerAPI
import StudyWeb

/// Who the request of an API call is from, found by ``APIMiddleware`` from its bearer token before the handler runs.
struct APICaller: Sendable {
    /// The participant of a participant's token.
    var participant: StudyService.SignedIn?
    /// The researcher of a researcher's token.
    var researcher: Researcher?
    /// The client's address, for the limits on wrong codes and passwords.
    var client: String

    @TaskLocal static var current = APICaller(client: "unknown")
}

extension StudyServerError {
    /// A participant's call without a participant's token (401).
    static let participantTokenRequired = StudyServerError(.unauthorized, code: "not-signed-in",
                                                           "Send a participant's bearer token (POST /participant/sessions).")
    /// A researcher's call without a researcher's token (401).
    static let researcherTokenRequired = StudyServerError(.unauthorized, code: "not-signed-in",
                                                          "Send a researcher's bearer token (POST /researcher/sessions).")

    /// The refusal as the API's `Error` schema: its code, and its sentence in English. The one mapping of a refusal to
    /// JSON, for the handlers' documented answers and ``APIMiddleware``'s.
    var apiError: Components.Schemas._Error { .init(code: code, message: description) }
}

/// The REST API's operations (`APIProtocol`, generated from `StudyServerAPI/openapi.yaml`), each through the same
/// workflow and checks as the web pages. Every refusal is an `Error` body with the status the document lists for the
/// operation.
struct APIHandler: APIProtocol {
    /// What the API's operations use of the server.
    protocol Service: Sendable {
        /// The study the server runs.
        var study: StudyDefinition { get }
        /// Participants, invitations, sessions, runs and consent records.
        var store: any StudyStore { get }
        /// The participant's rules: the onboarding gate, withdrawal, the daily feed, runs.
        var workflow: ParticipantWorkflow { get }
        /// Researchers' accounts, sessions and sign-in.
        var researchers: ResearcherAccounts { get }
        /// The clock, calendar and time zone the server runs on.
        var environment: StudyKitEnvironment { get }
        /// The web strings of `language` (an answer's problems in the participant's language).
        func strings(language: String) -> WebStrings
        /// The participant of a session token; nil when it is no live session.
        func signedIn(sessionToken: String?) async throws -> StudyService.SignedIn?
        /// Enrols a participant with the invitation `invitationCode`; the new session's token.
        func enrol(invitationCode: String?, timeZone: TimeZone, language: String) async throws -> String
        /// Signs in with a one-time code from `client`; the new session's token, nil when refused.
        func signIn(code: String, from client: String) async throws -> String?
        /// Starts, or finds the unfinished, run of `taskID`'s event `occurrence` (the onboarding's when nil).
        func startRun(taskID: String, occurrence: Int?, for participant: StudyParticipant) async throws -> UUID
        /// Whether a permissions step's reminder email address has a field (the server sends mail).
        var offersReminderEmail: Bool { get }
        /// A posted step's answers applied to the participant's run.
        func apply(_ form: [String: [String]], files: [String: UploadedFile], to runID: UUID, for participant: StudyParticipant) async throws
            -> (StepSubmission, ParticipantWorkflow.StepApplication<[String: FieldProblem]>)
        /// The PDF of the participant's signed consent; nil while it is printed.
        func consentPDF(signedIn: StudyService.SignedIn) async throws -> Data?
        /// The whole study in one export format, zipped.
        func exportArchive(format: StudyExportFormat, cells: CSVCellStyle) async throws -> StudyExportArchive
        /// Every participant's care data: tasks, outcomes, adherence.
        var careStore: any CareStore { get }
    }

    let service: any Service

    /// The caller's participant; refused when the token is not a participant's.
    private func participant() throws(StudyServerError) -> StudyService.SignedIn {
        guard let signedIn = APICaller.current.participant else { throw .participantTokenRequired }
        return signedIn
    }

    /// `body`, its refusals as ``StudyServerError``s (``StudyServerError/init(refusing:)``; anything else is the
    /// server's fault and thrown as it is).
    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw StudyServerError(refusing: error) ?? error
        }
    }

    /// `failure` as one of an operation's documented responses, via `make`; a status the operation does not document
    /// becomes a 500 (a mistake in this file, which the API tests would show).
    private func output<Output>(_ failure: StudyServerError, _ make: (Int, Components.Schemas._Error) -> Output?) throws -> Output {
        guard let output = make(Int(failure.status.code), failure.apiError) else {
            throw StudyServerError(.internalServerError, code: "server-error", "\(failure.code): \(failure.description)")
        }
        return output
    }

    // MARK: - Participants

    func participantSignIn(_ input: Operations.ParticipantSignIn.Input) async throws -> Operations.ParticipantSignIn.Output {
        do {
            guard case .json(let body) = input.body else { throw StudyServerError(.badRequest, code: "bad-request", "Send JSON.") }
            let token: String
            switch (body.invitationCode, body.signInCode) {
            case (let code?, nil):
                guard let zoneName = body.timeZone, let zone = TimeZone(identifier: zoneName) else {
                    throw StudyServerError(.unprocessableContent, code: "choose-time-zone", "Give `timeZone`, an IANA time zone such as Europe/Berlin.")
                }
                let language = body.language ?? service.study.defaultLanguage
                guard service.study.languages.contains(language) else {
                    throw StudyServerError(.unprocessableContent, code: "choose-language", "`language` must be one of " + service.study.languages.joined(separator: ", ") + ".")
                }
                token = try await refusing {
                    try await AuditTrail.$source.withValue(AuditSource(actor: "participant joining with an invitation", reason: "POST /api/v1/participant/sessions")) {
                        try await service.enrol(invitationCode: code, timeZone: zone, language: language)
                    }
                }
            case (nil, let code?):
                guard let found = try await refusing({ try await service.signIn(code: code, from: APICaller.current.client) }) else {
                    throw StudyServerError(.notFound, code: "sign-in-code-invalid", "This sign-in code is unknown, used or expired.")
                }
                token = found
            default:
                throw StudyServerError(.badRequest, code: "bad-request", "Give exactly one of `invitationCode` and `signInCode`.")
            }
            guard let signedIn = try await service.signedIn(sessionToken: token), let session = try await service.store.session(token: token) else {
                throw StudyServerError(.internalServerError, code: "server-error", "the new session was not found")
            }
            return .created(.init(body: .json(.init(token: token, participantID: signedIn.participant.id, expiresAt: session.expiresAt))))
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 400: .badRequest(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                case 404: .notFound(.init(body: .json(error)))
                case 422: .unprocessableContent(.init(body: .json(error)))
                case 429: .tooManyRequests(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    func getParticipant(_ input: Operations.GetParticipant.Input) async throws -> Operations.GetParticipant.Output {
        do {
            let participant = try participant().participant
            let onboarded = try await service.workflow.isOnboarded(participant)
            let withdrawn = try await service.workflow.withdrawal.isWithdrawn(participant)
            return .ok(.init(body: .json(.init(id: participant.id, language: participant.language, timeZone: participant.timeZone.identifier,
                                               enrolledAt: participant.enrolledAt, onboarded: onboarded, withdrawn: withdrawn))))
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 401: .unauthorized(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    /// The most days one call of `listEvents` returns.
    static let maximumDays = 31

    func listEvents(_ input: Operations.ListEvents.Input) async throws -> Operations.ListEvents.Output {
        do {
            let participant = try participant().participant
            let calendar = service.workflow.calendar(for: participant)
            let from: Date, to: Date
            do {
                from = try DailyPageBuilder.date(ofParameter: input.query.from, in: calendar)
                to = try DailyPageBuilder.date(ofParameter: input.query.to, in: calendar)
            } catch {
                throw StudyServerError(.badRequest, code: "bad-request", "`from` and `to` must be dates written YYYY-MM-DD between the years 1900 and 2200.")
            }
            let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: from), to: calendar.startOfDay(for: to)).day ?? 0
            guard days >= 0, days < Self.maximumDays else {
                throw StudyServerError(.badRequest, code: "bad-request", "`to` must be on or after `from`, at most \(Self.maximumDays - 1) days later.")
            }
            // The one gate (withdrawn, then not yet onboarded), as every participant action goes through.
            _ = try await refusing { try await service.workflow.check(.readEvents, for: participant) }
            var events: [Components.Schemas.Event] = []
            for offset in 0...days {
                guard let date = calendar.date(byAdding: .day, value: offset, to: from) else { continue }
                let feed = try await service.workflow.dailyPage(containing: date, for: participant).day
                for card in feed.cards {
                    for event in card.events {
                        events.append(.init(task: card.taskID, title: card.title, card: card.kind.rawValue, occurrence: event.occurrence,
                                            start: event.start, end: event.end, open: event.isOpen, done: event.isDone,
                                            values: event.values.map(Self.value)))
                    }
                }
            }
            return .ok(.init(body: .json(.init(events: events))))
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 400: .badRequest(.init(body: .json(error)))
                case 401: .unauthorized(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    private static func value(_ value: OutcomeValue) -> Components.Schemas.OutcomeValue {
        let (type, number, text): (Components.Schemas.OutcomeValue._TypePayload, Double?, String?) = switch value.value {
        case .integer(let integer): (.integer, Double(integer), nil)
        case .double(let double): (.double, double, nil)
        case .boolean(let yes): (.boolean, nil, yes ? "true" : "false")
        case .text(let text): (.text, nil, text)
        case .date(let date): (.date, nil, ISO8601.string(from: date, in: .gmt))
        case .binary(let data): (.binary, nil, data.base64EncodedString())
        }
        return .init(kind: value.kind, _type: type, number: number, text: text, units: value.units, createdAt: value.createdDate)
    }

    func changeOutcome(_ input: Operations.ChangeOutcome.Input) async throws -> Operations.ChangeOutcome.Output {
        do {
            let signedIn = try participant()
            guard case .json(let change) = input.body else { throw StudyServerError(.badRequest, code: "bad-request", "Send JSON.") }
            let task = input.path.task, occurrence = input.path.occurrence
            let workflow = service.workflow, participant = signedIn.participant
            let source = AuditSource(actor: "participant \(participant.id)", reason: "POST /api/v1/participant/events/\(task)/\(occurrence)/outcome")
            try await refusing {
                try await AuditTrail.$source.withValue(source) {
                    switch change.action {
                    case .done: try await workflow.record(taskID: task, occurrence: occurrence, for: participant)
                    case .undo: try await workflow.removeOutcome(taskID: task, occurrence: occurrence, for: participant)
                    case .log: try await workflow.log(taskID: task, occurrence: occurrence, for: participant)
                    case .deleteLog:
                        guard let at = change.loggedAt else {
                            throw StudyServerError(.unprocessableContent, code: "logged-at-required", "`deleteLog` needs `loggedAt`, the time of the entry to delete.")
                        }
                        try await workflow.deleteLogEntry(taskID: task, occurrence: occurrence, loggedAt: at, for: participant)
                    case .value:
                        guard let value = change.value else {
                            throw StudyServerError(.unprocessableContent, code: "value-required", "`value` needs `value`, the number to add.")
                        }
                        try await workflow.enter(value, taskID: task, occurrence: occurrence, for: participant)
                    }
                }
            }
            return .noContent(.init())
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 400: .badRequest(.init(body: .json(error)))
                case 401: .unauthorized(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                case 404: .notFound(.init(body: .json(error)))
                case 409: .conflict(.init(body: .json(error)))
                case 422: .unprocessableContent(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    // MARK: - Runs

    func startRun(_ input: Operations.StartRun.Input) async throws -> Operations.StartRun.Output {
        do {
            let participant = try participant().participant
            guard case .json(let body) = input.body else { throw StudyServerError(.badRequest, code: "bad-request", "Send JSON.") }
            let source = AuditSource(actor: "participant \(participant.id)", reason: "POST /api/v1/participant/runs")
            let run = try await refusing {
                let id = try await AuditTrail.$source.withValue(source) {
                    try await service.startRun(taskID: body.task, occurrence: body.occurrence, for: participant)
                }
                return try await runBody(id, of: participant)
            }
            return .created(.init(body: .json(run)))
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 400: .badRequest(.init(body: .json(error)))
                case 401: .unauthorized(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                case 404: .notFound(.init(body: .json(error)))
                case 409: .conflict(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    func getRun(_ input: Operations.GetRun.Input) async throws -> Operations.GetRun.Output {
        do {
            let participant = try participant().participant
            let runID = try Self.runID(input.path.run)
            return .ok(.init(body: .json(try await refusing { try await runBody(runID, of: participant) })))
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 400: .badRequest(.init(body: .json(error)))
                case 401: .unauthorized(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                case 404: .notFound(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    func postStep(_ input: Operations.PostStep.Input) async throws -> Operations.PostStep.Output {
        do {
            let participant = try participant().participant
            let runID = try Self.runID(input.path.run)
            guard case .json(let body) = input.body else { throw StudyServerError(.badRequest, code: "bad-request", "Send JSON.") }
            // The web form's vocabulary: the step and the button pressed beside the step's own fields.
            var form = body.fields?.additionalProperties ?? [:]
            for reserved in [StepSubmission.stepFieldName, StepSubmission.actionFieldName, StepSubmission.csrfFieldName] where form[reserved] != nil {
                throw StudyServerError(.badRequest, code: "bad-request", "`fields` may not hold `\(reserved)`: give the step and the action beside them.")
            }
            form[StepSubmission.stepFieldName] = [body.step]
            form[StepSubmission.actionFieldName] = [body.action.rawValue]
            let source = AuditSource(actor: "participant \(participant.id)", reason: "POST /api/v1/participant/runs/\(runID.uuidString.lowercased())/steps")
            let applied = try await refusing {
                try await AuditTrail.$source.withValue(source) { try await service.apply(form, files: [:], to: runID, for: participant).1 }
            }
            switch applied {
            case .refused(_, let problems):
                let strings = service.strings(language: participant.language)
                return .unprocessableContent(.init(body: .json(.init(
                    code: "answers-not-accepted", message: "Some answers are missing or not acceptable; nothing was stored.",
                    problems: .init(additionalProperties: problems.mapValues { $0.text(in: strings) })))))
            case .beingFinished:
                throw StudyServerError(.conflict, code: "run-being-finished", "The run is being finished by another request.")
            case .saved, .finished:
                return .ok(.init(body: .json(try await refusing { try await runBody(runID, of: participant) })))
            }
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 400: .badRequest(.init(body: .json(error)))
                case 401: .unauthorized(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                case 404: .notFound(.init(body: .json(error)))
                case 409: .conflict(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    /// A run id from a path; a malformed one is no run of the caller's (404), as on the web pages.
    private static func runID(_ text: String) throws(StudyServerError) -> UUID {
        guard let id = UUID(uuidString: text) else { throw StudyServerError(.notFound, .refusalNoSuchRun) }
        return id
    }

    /// The participant's run `runID` as the `Run` schema: with its current step and that step's fields while it is in
    /// progress.
    private func runBody(_ runID: UUID, of participant: StudyParticipant) async throws -> Components.Schemas.Run {
        let (run, session) = try await service.workflow.run(runID, for: participant)
        let step = session.flatMap { session in session.currentStep.map { step in
            let html: String? = if case .webContent(let content) = step.kind { content.html } else { nil }
            return Components.Schemas.Step(identifier: step.identifier, _type: step.kind.type.rawValue, title: step.title, text: step.text,
                                           detail: step.detailText, html: html, optional: step.isOptional, canGoBack: session.canGoBack,
                                           fields: StepForm(step: step, locale: session.locale, timeZone: session.timeZone, allowsTypedSignature: true,
                                                            offersReminderEmail: service.offersReminderEmail)
                                               .fields.map(Self.field))
        } }
        return .init(id: run.id.uuidString.lowercased(), task: run.taskID, occurrence: run.occurrence,
                     state: .init(rawValue: run.state.rawValue) ?? .inProgress, step: step)
    }

    private static func field(_ field: StepForm.Field) -> Components.Schemas.StepField {
        .init(name: field.name, question: field.question, input: .init(rawValue: field.input.rawValue) ?? .text, label: field.label,
              optional: field.isOptional,
              choices: field.choices.isEmpty ? nil : field.choices.map { .init(number: $0.number, text: $0.text, exclusive: $0.isExclusive) },
              unit: field.unit, minimum: field.minimum, maximum: field.maximum)
    }

    func getConsentPDF(_ input: Operations.GetConsentPDF.Input) async throws -> Operations.GetConsentPDF.Output {
        do {
            let signedIn = try participant()
            guard let pdf = try await refusing({ try await service.consentPDF(signedIn: signedIn) }) else {
                throw StudyServerError(.conflict, .refusalConsentPrinting)
            }
            return .ok(.init(body: .pdf(HTTPBody(pdf))))
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 401: .unauthorized(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                case 404: .notFound(.init(body: .json(error)))
                case 409: .conflict(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    // MARK: - Researchers

    func researcherSignIn(_ input: Operations.ResearcherSignIn.Input) async throws -> Operations.ResearcherSignIn.Output {
        do {
            guard case .json(let body) = input.body else { throw StudyServerError(.badRequest, code: "bad-request", "Send JSON.") }
            let result = try await AuditTrail.$source.withValue(AuditSource(actor: "console sign-in", reason: "POST /api/v1/researcher/sessions")) {
                try await service.researchers.signIn(email: body.email, password: body.password, from: APICaller.current.client, at: service.environment.now())
            }
            switch result {
            case .signedIn(let issued):
                guard let researcher = try await service.researchers.store.researcher(id: issued.session.researcherID) else {
                    throw StudyServerError(.internalServerError, code: "server-error", "the researcher was not found")
                }
                return .created(.init(body: .json(.init(token: issued.token, expiresAt: issued.session.expiresAt, role: .init(rawValue: researcher.role.rawValue) ?? .viewer))))
            case .refused:
                throw StudyServerError(.unauthorized, code: "wrong-email-or-password", "The email address or the password is wrong.")
            case .paused(let until):
                throw StudyServerError(.tooManyRequests, code: "too-many-sign-ins",
                                       "Too many wrong passwords: signing in is paused" + (until.map { " until " + ISO8601.string(from: $0, in: .gmt) } ?? "") + ".")
            }
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 400: .badRequest(.init(body: .json(error)))
                case 401: .unauthorized(.init(body: .json(error)))
                case 429: .tooManyRequests(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    func getParticipantAdherence(_ input: Operations.GetParticipantAdherence.Input) async throws -> Operations.GetParticipantAdherence.Output {
        do {
            guard let researcher = APICaller.current.researcher else { throw StudyServerError.researcherTokenRequired }
            guard researcher.role.allows(.readStudyData) else {
                throw StudyServerError(.forbidden, code: "forbidden", "Your role (\(researcher.role.rawValue)) may not read the study's data.")
            }
            let days = input.query.days ?? 28
            guard (1...366).contains(days) else {
                throw StudyServerError(.badRequest, code: "bad-request", "`days` must be from 1 to 366 (\(days)).")
            }
            let id = input.path.participant
            guard StudyCareIdentifiers.isValidParticipantID(id), let participant = try await service.store.participant(id: id) else {
                throw StudyServerError(.notFound, code: "not-found", "There is no participant '\(id)'.")
            }
            let calendar = service.workflow.calendar(for: participant)
            let today = calendar.startOfDay(for: service.environment.now())
            guard let from = calendar.date(byAdding: .day, value: 1 - days, to: today),
                  let end = calendar.date(byAdding: .day, value: 1, to: today) else {
                throw StudyServerError(.badRequest, code: "bad-request", "`days` reaches outside the calendar.")
            }
            let perTask = try await service.careStore.adherenceByStudyTask(participant: participant.id, tasks: service.study.tasks,
                                                                           window: DateInterval(start: from, end: end), calendar: calendar)
            let zone = calendar.timeZone
            let tasks = perTask.map { task, days in
                Components.Schemas.TaskAdherence(task: task.id, title: task.title, countsTowardAdherence: task.impactsAdherence, days: days.map { day in
                    let date = ISO8601.dayString(from: day.date, in: zone)
                    return switch day.state {
                    case .noTasks: .init(date: date, state: .noTasks)
                    case .noEvents: .init(date: date, state: .noEvents)
                    case .progress(let share): .init(date: date, state: .progress, share: share)
                    }
                })
            }
            return .ok(.init(body: .json(.init(participant: participant.id, timeZone: participant.timeZone.identifier,
                                               from: ISO8601.dayString(from: from, in: zone), to: ISO8601.dayString(from: today, in: zone), tasks: tasks))))
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 400: .badRequest(.init(body: .json(error)))
                case 401: .unauthorized(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                case 404: .notFound(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }

    func exportStudy(_ input: Operations.ExportStudy.Input) async throws -> Operations.ExportStudy.Output {
        do {
            guard let researcher = APICaller.current.researcher else { throw StudyServerError.researcherTokenRequired }
            guard researcher.role.allows(.exportData) else {
                throw StudyServerError(.forbidden, code: "forbidden", "Your role (\(researcher.role.rawValue)) may not export.")
            }
            guard let format = StudyExportFormat(rawValue: input.path.format.rawValue) else {
                throw StudyServerError(.badRequest, code: "bad-request", "Unknown export format.")
            }
            let source = AuditSource(actor: "researcher \(researcher.email) (\(researcher.id.uuidString.lowercased()))", reason: "GET /api/v1/exports/\(format.rawValue)")
            let archive = try await AuditTrail.$source.withValue(source) { try await service.exportArchive(format: format, cells: .exact) }
            let chunks = try archive.chunks().map { ArraySlice([UInt8]($0)) }
            return .ok(.init(body: .applicationZip(HTTPBody(chunks, length: .known(Int64(archive.size)), iterationBehavior: .single))))
        } catch let failure as StudyServerError {
            return try output(failure) { status, error in
                switch status {
                case 400: .badRequest(.init(body: .json(error)))
                case 401: .unauthorized(.init(body: .json(error)))
                case 403: .forbidden(.init(body: .json(error)))
                default: nil
                }
            }
        }
    }
}

extension StudyService: APIHandler.Service {}
