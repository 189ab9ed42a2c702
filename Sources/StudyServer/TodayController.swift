import Foundation
import Hummingbird
import Study

/// Today's page and what its cards start: the onboarding, a survey for one event, ticking off an event.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /` | today's tasks, behind the onboarding gate |
/// | `GET /onboarding`, `GET /tasks/TASK/N` | start or resume the onboarding or a survey run |
/// | `POST /tasks/TASK/N/done` | mark an event of a task without a survey done |
struct TodayController {
    let service: StudyService

    /// The largest occurrence index in a task event's URL: a daily task for a thousand years has fewer.
    static let maximumOccurrence = 1_000_000

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/") { request, context in
            let notice = request.uri.queryParameters.get("notice").flatMap { noticeText(named: String($0), language: context.participant.language) }
            return StudyRouter.html(try await service.homePage(signedIn: context.signedIn, notice: notice))
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
        group.post("/tasks/:task/:occurrence/done") { _, context in
            let (task, occurrence) = try taskEvent(context)
            try await service.workflow.checkOff(taskID: task, occurrence: occurrence, for: context.participant)
            return Response.redirect(to: "/", type: .normal)
        }
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
