import Foundation
import Hummingbird

/// Finds the participant of a request's session cookie and puts them in the context (``StudyRequestContext/signedIn``).
/// A request without a valid session goes on without one: public pages serve it, and a participant's routes refuse it
/// when ``ParticipantRequestContext`` is made.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = StudyRequestContext
    let service: StudyService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.signedIn = try await service.signedIn(sessionToken: request.cookies[StudyRouter.sessionCookie]?.value)
        return try await next(request, context)
    }
}

/// Reads the form every signed-in participant's post carries and checks its CSRF token, in one place for every such
/// route: a post whose one `_csrf` field is not the session's token is refused (403) before the route runs. The form
/// is left in ``ParticipantRequestContext/form``. A run's step may take files: its body limit follows the largest file
/// its current step accepts.
struct SignedInFormMiddleware: RouterMiddleware {
    typealias Context = ParticipantRequestContext
    let service: StudyService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        var context = context
        let form = try await PostedForm.read(request) {
            guard let run = context.parameters.get("run").flatMap(UUID.init(uuidString:)) else { return 0 }
            return try await service.largestUpload(runID: run, participant: context.participant)
        }
        try context.signedIn.requireCSRFToken(in: form.fields)
        context.form = form
        return try await next(request, context)
    }
}
