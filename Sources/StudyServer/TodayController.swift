import Foundation
import Hummingbird
import Study
import StudyWeb

/// The daily page and what its cards do: start the onboarding or a survey for one event, record, undo, log and enter
/// numbers for events of tasks without a survey. Every post names the day it came from (`day`), and its page is shown
/// again after it.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /`, `GET /?day=2026-11-23` | today's or that day's week and cards, behind the onboarding gate |
/// | `GET /onboarding`, `GET /tasks/TASK/N` | start or resume the onboarding or a survey run |
/// | `POST /tasks/TASK/N/done`, `…/undo` | record an event done, or remove what was recorded |
/// | `POST /tasks/TASK/N/log`, `…/log/delete` (`at`: the entry's time in ms) | add a logged time, or delete one |
/// | `POST /tasks/TASK/N/value` (`value`) | add an entered number to the event's outcome |
/// | `GET /tasks/TASK/N/withdraw`, `POST …/withdraw` | ask, then take back a completed survey (its run kept, withdrawn) |
struct TodayController {
    /// What today's routes use of the server besides a participant page's frame: the daily page, and starting a run.
    protocol Service: ParticipantPageService {
        /// The daily page of the day containing `date` (today when nil), with `notice` on top.
        func homePage(signedIn: StudyService.SignedIn, date: Date?, notice: String?) async throws -> [UInt8]
        /// Starts, or finds the unfinished, run of `taskID`'s event `occurrence` (the onboarding's when nil).
        func startRun(taskID: String, occurrence: Int?, for participant: StudyParticipant) async throws -> UUID
    }

    let service: any Service

    /// The largest occurrence index in a task event's URL: a daily task for a thousand years has fewer.
    static let maximumOccurrence = 1_000_000

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/") { request, context in
            let query = request.uri.queryParameters
            let notice = query.get("notice").flatMap { noticeText(named: String($0), language: context.participant.language) }
            let date = try query.get("day").map { try day($0, for: context) }
            return StudyRouter.html(try await service.homePage(signedIn: context.signedIn, date: date, notice: notice))
        }
        group.get("/onboarding") { _, context in
            let run: UUID
            do {
                run = try await service.startRun(taskID: StudyTaskDefinition.onboardingID, occurrence: nil, for: context.participant)
            } catch StudyRefusal.onboardingCompleted {
                // Once onboarded, the consent stands: opening the link again does not start a second one.
                return Response.redirect(to: "/", type: .normal)
            }
            return Response.redirect(to: "/runs/\(run.uuidString.lowercased())", type: .normal)
        }
        group.get("/tasks/:task/:occurrence") { _, context in
            let (task, occurrence) = try taskEvent(context)
            let run = try await service.startRun(taskID: task, occurrence: occurrence, for: context.participant)
            return Response.redirect(to: "/runs/\(run.uuidString.lowercased())", type: .normal)
        }
        let workflow = service.workflow
        addEventAction(.record, to: group) { task, occurrence, context in
            try await workflow.record(taskID: task, occurrence: occurrence, for: context.participant)
        }
        addEventAction(.removeOutcome, to: group) { task, occurrence, context in
            try await workflow.removeOutcome(taskID: task, occurrence: occurrence, for: context.participant)
        }
        addEventAction(.log, to: group) { task, occurrence, context in
            try await workflow.log(taskID: task, occurrence: occurrence, for: context.participant)
        }
        addEventAction(.deleteLogEntry, to: group) { task, occurrence, context in
            guard let text = context.fields["at"]?.first, let milliseconds = Int64(text), abs(milliseconds) < 1 << 50 else {
                throw StudyServerError.malformed("The field 'at' must be the logged time in milliseconds since 1970.")
            }
            try await workflow.deleteLogEntry(taskID: task, occurrence: occurrence, loggedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
                                              for: context.participant)
        }
        addEventAction(.withdrawSurvey, to: group) { task, occurrence, context in
            try await workflow.withdrawSurvey(taskID: task, occurrence: occurrence, for: context.participant)
        }
        group.get("/tasks/:task/:occurrence/\(Self.pathComponent(of: .withdrawSurvey))") { request, context in
            let (task, occurrence) = try taskEvent(context)
            // Asked only where it can be done: a survey event with an outcome, still open.
            try await workflow.check(.withdrawSurvey(task: task, occurrence: occurrence), for: context.participant)
            let calendar = workflow.calendar(for: context.participant)
            let day = try request.uri.queryParameters.get("day").map { DailyPageBuilder.parameter(of: try self.day($0, for: context), in: calendar) }
            let strings = service.strings(language: context.participant.language)
            let title = service.study.localized(context.participant.language).task(id: task)?.title ?? task
            let page = ConfirmPage(title: strings.format(.withdrawTitle, ["task": title]), text: strings[.withdrawText],
                                   post: TaskCard.Post(action: Self.path(of: .withdrawSurvey, task: task, occurrence: occurrence),
                                                       fields: day.map { ["day": $0] } ?? [:]),
                                   confirm: strings[.withdrawConfirm], cancelURL: day.map { "/?day=" + $0 } ?? "/")
            return StudyRouter.html(service.sitePages.confirm(page, context: service.siteContext(language: context.participant.language,
                                                                                                signedIn: context.signedIn)))
        }
        addEventAction(.enterValue, to: group) { task, occurrence, context in
            let text = context.fields["value"]?.first?.trimmingCharacters(in: .whitespaces) ?? ""
            // A browser's number field sends a dot whatever the language; a comma is a decimal comma typed elsewhere.
            guard text.utf8.count <= 40, let number = Double(text.replacingOccurrences(of: ",", with: ".")), number.isFinite else {
                let entry = service.study.task(id: task)?.valueEntry
                throw StudyServerError(StudyRefusal.valueNotAccepted(task: task, minimum: entry?.minimum ?? 0, maximum: entry?.maximum ?? 0))
            }
            try await workflow.enter(number, taskID: task, occurrence: occurrence, for: context.participant)
        }
    }

    /// The last part of the path of a card's action on an event (`/tasks/TASK/N/PART`); empty for starting a run,
    /// which is the event's own path. The one table of the routes above and the daily page's forms and links.
    static func pathComponent(of action: StudyCardAction) -> String {
        switch action {
        case .record: "done"
        case .removeOutcome: "undo"
        case .log: "log"
        case .deleteLogEntry: "log/delete"
        case .enterValue: "value"
        case .startRun: ""
        case .withdrawSurvey: "withdraw"
        }
    }

    /// The path of `action` on event `occurrence` of `task`: `/tasks/TASK/N/done`, `/tasks/TASK/N` to start a run.
    static func path(of action: StudyCardAction, task: String, occurrence: Int) -> String {
        let event = "/tasks/" + URLPath.encoded(task) + "/" + String(occurrence)
        let component = pathComponent(of: action)
        return component.isEmpty ? event : event + "/" + component
    }

    /// A post of `action` on `/tasks/TASK/N/…` that does `perform`, then shows the day it came from again.
    private func addEventAction(_ action: StudyCardAction, to group: RouterGroup<ParticipantRequestContext>,
                                _ perform: @escaping @Sendable (String, Int, ParticipantRequestContext) async throws -> Void) {
        group.post("/tasks/:task/:occurrence/\(Self.pathComponent(of: action))") { _, context in
            let (task, occurrence) = try taskEvent(context)
            let back = try context.fields["day"]?.first.map { text in
                DailyPageBuilder.url(of: try day(text, for: context), in: service.workflow.calendar(for: context.participant))
            }
            try await perform(task, occurrence, context)
            return Response.redirect(to: back ?? "/", type: .normal)
        }
    }

    /// The day a `day` parameter names in the participant's calendar, or a refusal that says what it should be.
    private func day(_ text: some StringProtocol, for context: ParticipantRequestContext) throws -> Date {
        try DailyPageBuilder.date(ofParameter: text, in: service.workflow.calendar(for: context.participant))
    }

    private func taskEvent(_ context: ParticipantRequestContext) throws -> (String, Int) {
        let task = try context.parameters.require("task")
        guard let occurrence = Int(try context.parameters.require("occurrence")), (0...Self.maximumOccurrence).contains(occurrence) else {
            throw StudyServerError(.notFound, .refusalNoSuchEvent)
        }
        return (task, occurrence)
    }

    private func noticeText(named name: String, language: String) -> String? {
        let strings = service.strings(language: language)
        switch name {
        case "onboarded": return strings[.noticeOnboarded]
        case "done": return strings[.noticeTaskDone]
        default: return nil
        }
    }
}

extension StudyService: TodayController.Service {}
