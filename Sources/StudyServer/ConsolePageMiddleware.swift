import Foundation
import Hummingbird
import Study
import StudyWeb

/// Turns refusals into console pages (in English, with the console's navigation): the one mapping of a
/// ``StudyServerError`` to the console. A page opened without a session goes to the sign-in form; anything else says
/// what was wrong with its status.
struct ConsolePageMiddleware: RouterMiddleware {
    typealias Context = StudyRequestContext
    /// The study, whose name the pages show.
    let study: StudyDefinition
    /// The console's page templates.
    let pages: ConsolePageRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return page(StudyServerError.consoleNoSuchPage, signedOut: false)
        } catch {
            // The console's refusals and any refusal of the study's (StudyServerError(refusing:)); anything else is
            // left to the site's middleware, which logs it and shows the server's fault.
            guard let refusal = StudyServerError(refusing: error) else { throw error }
            if refusal == .consoleNotSignedIn, request.method == .get { return .redirect(to: "/console/sign-in", type: .normal) }
            return page(refusal, signedOut: refusal == .consoleNotSignedIn)
        }
    }

    /// The console's page of `refusal`: its status, and its sentence in English (``StudyServerError/description``).
    private func page(_ refusal: StudyServerError, signedOut: Bool) -> Response {
        let status = refusal.status, text = refusal.description
        let link = signedOut ? ConsoleLinkView(href: "/console/sign-in", label: "Sign in") : ConsoleLinkView(href: "/console", label: "Back to the console")
        let view = ConsoleMessageView(title: status.code == 401 ? "Not signed in" : "That did not work", text: text, link: link)
        var response = StudyRouter.html(pages.message(view, context: ConsoleContext(studyName: study.name, researcher: nil,
                                                                                                    csrfToken: nil, assets: .linked(basePath: "/assets"))),
                                        status: status)
        refusal.addRetryAfter(to: &response.headers)
        return response
    }
}
