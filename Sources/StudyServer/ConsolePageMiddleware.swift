import Foundation
import Hummingbird
import StudyWeb

/// Turns the console's refusals into console pages (in English, with the console's navigation): a page opened
/// without a session goes to the sign-in form; anything else says what was wrong with its status.
struct ConsolePageMiddleware: RouterMiddleware {
    typealias Context = StudyRequestContext
    let service: StudyService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let refusal as ConsoleRefusal {
            if refusal == .notSignedIn, request.method == .get { return .redirect(to: "/console/sign-in", type: .normal) }
            return page(refusal.status, refusal.message, signedOut: refusal == .notSignedIn)
        } catch let error as StudyServerError {
            return page(error.status, error.description, signedOut: false)
        } catch let error as HTTPError where error.status == .notFound {
            return page(.notFound, ConsoleRefusal.noSuchPage.message, signedOut: false)
        }
    }

    private func page(_ status: HTTPResponse.Status, _ text: String, signedOut: Bool) -> Response {
        let link = signedOut ? ConsoleLinkView(href: "/console/sign-in", label: "Sign in") : ConsoleLinkView(href: "/console", label: "Back to the console")
        let view = ConsoleMessageView(title: status.code == 401 ? "Not signed in" : "That did not work", text: text, link: link)
        return StudyRouter.html(service.consolePages.message(view, context: ConsoleContext(studyName: service.study.name, researcher: nil, csrfToken: nil,
                                                                                            assets: .linked(basePath: "/assets"))),
                                status: status)
    }
}
