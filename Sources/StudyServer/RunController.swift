import Foundation
import HTTPTypes
import Hummingbird

/// A run's steps: the current one as a page, and its posted form applied through the workflow.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /runs/RUN` | the run's current step |
/// | `POST /runs/RUN` | the step's form (its files, for a file question): the next step, the same step with its problems (422), or home |
struct RunController {
    let service: StudyService

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/runs/:run") { _, context in
            respond(try await service.runPage(try runID(context), signedIn: context.signedIn))
        }
        group.post("/runs/:run") { _, context in
            let form = context.form ?? PostedForm(fields: [:], files: [:])
            return respond(try await service.post(form.fields, files: form.files, to: try runID(context), signedIn: context.signedIn))
        }
    }

    private func runID(_ context: ParticipantRequestContext) throws -> UUID {
        guard let id = UUID(uuidString: try context.parameters.require("run")) else { throw StudyServerError(.notFound, .refusalNoSuchRun) }
        return id
    }

    private func respond(_ response: StudyService.RunResponse) -> Response {
        switch response {
        case .page(let status, let page, let isolated):
            isolated ? StudyRouter.isolatedHTML(page, status: HTTPResponse.Status(code: status)) : StudyRouter.html(page, status: HTTPResponse.Status(code: status))
        case .redirect(let location): Response.redirect(to: location, type: .normal)
        }
    }
}
