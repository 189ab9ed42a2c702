import Foundation
import Hummingbird
import Study

/// Guards the participant's routes, in one place for all of them: finds the participant of the request's session
/// cookie (refusing the request, 401, when there is no valid session), and for a post reads the form and checks its
/// CSRF token (refusing it, 403, when its one `_csrf` field is not the session's token) before any route runs. The
/// participant and the form are left in the context, which ``ParticipantRequestContext`` then carries. A run's step
/// may take files: its body limit follows the largest file its current step accepts.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = StudyRequestContext

    /// What the participant's guard uses of the server.
    protocol Service: Sendable {
        /// The participant of a session token; nil when it is no live session.
        func signedIn(sessionToken: String?) async throws -> StudyService.SignedIn?
        /// The largest file the current step of the participant's run accepts, in bytes (0 for none).
        func largestUpload(runID: UUID, participant: StudyParticipant) async throws -> Int
    }

    let service: any Service

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let signedIn = try await service.signedIn(sessionToken: StudyRouter.sessionToken(of: request)) else {
            throw StudyServerError.notSignedIn
        }
        var context = context
        context.signedIn = signedIn
        if request.method == .post {
            let form = try await PostedForm.read(request) {
                guard let run = context.parameters.get("run").flatMap(UUID.init(uuidString:)) else { return 0 }
                return try await service.largestUpload(runID: run, participant: signedIn.participant)
            }
            try signedIn.requireCSRFToken(in: form.fields)
            context.form = form
        }
        // Whatever this request changes is the participant's doing in the audit trail.
        let source = AuditSource(actor: "participant \(signedIn.participant.id)", reason: "\(request.method) \(request.uri.path)")
        return try await AuditTrail.$source.withValue(source) { try await next(request, context) }
    }
}

extension StudyService: SessionMiddleware.Service {}
