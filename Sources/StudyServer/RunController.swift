import Foundation
import HTTPTypes
import Hummingbird
import StudyWeb

/// A run's steps: the current one as a page, and its posted form applied through the workflow.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /runs/RUN` | the run's current step |
/// | `POST /runs/RUN` | the step's form (its files, for a file question): the next step, the same step with its problems (422), or home |
struct RunController {
    /// What the run routes use of the server: a run's current step, and a post applied to it.
    protocol Service: Sendable {
        /// The run's current step as a page, or where to go instead.
        func runPage(_ runID: UUID, signedIn: StudyService.SignedIn) async throws -> StudyService.RunResponse
        /// The posted step form applied to the run: the next page, the same step with its problems, or where to go.
        func post(_ form: [String: [String]], files: [String: UploadedFile], to runID: UUID, signedIn: StudyService.SignedIn) async throws
            -> StudyService.RunResponse
    }

    let service: any Service

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

extension StudyService: RunController.Service {}
