import Foundation
import Mustache
import Research

/// Renders the participant's page for the current step of a ``TaskSession``: a complete HTML document with the
/// step's texts, its form fields pre-filled from stored answers, progress, errors and buttons.
///
/// Create one renderer when the server starts (it parses the templates once) and share it:
///
/// ```swift
/// let renderer = try StepPageRenderer()
/// let html = try renderer.render(session: session, context: context)
/// // after a post with problems, show what was typed with the messages:
/// let again = try renderer.render(session: session, context: context, errors: result.errors, submitted: submission)
/// ```
///
/// Every text from the task, the study and the participant is HTML-escaped; only a web content step's HTML,
/// which the study wrote, is inserted as it is.
public struct StepPageRenderer: Sendable {
    private let library: MustacheLibrary

    /// The templates, by name, as shipped under `Resources/templates`: the shared layout and the step page's own.
    static let templateNames = TemplateLibrary.layoutNames + ["page", "step", "question", "input", "signature"]

    /// Parses the templates; throws ``StepPageError/template(_:_:)`` when one is missing or malformed (a build mistake).
    public init() throws(StepPageError) {
        library = try TemplateLibrary.load(Self.templateNames)
    }

    /// The HTML page for the session's current step.
    ///
    /// - Parameters:
    ///   - session: the run; its current step, stored answers (for pre-filling), progress and Back/Skip availability.
    ///   - context: language and strings, CSRF token, form action, study name and tint, asset delivery.
    ///   - errors: problems from ``StepSubmission/apply(to:allowsTypedSignature:)`` to show beside their questions.
    ///   - submitted: the post that had those problems; its fields are shown again as the participant typed them.
    /// - Throws: ``StepPageError/finished(_:)`` when the run has ended and has no step to show.
    public func render(session: TaskSession, context: PageContext, errors: [String: FieldProblem] = [:],
                       submitted: StepSubmission? = nil) throws(StepPageError) -> String {
        guard let step = session.currentStep else { throw .finished(session.finishReason ?? .completed) }
        let posted = submitted.flatMap { $0.stepIdentifier == step.identifier ? $0.fields : nil }
        let view = StepPageBuilder(session: session, step: step, context: context, errors: errors, posted: posted).build()
        guard let html = library.render(view, withTemplate: "page") else { throw .template("page", "the template is not registered") }
        return html
    }
}

/// Why a step page could not be rendered.
public enum StepPageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The run has ended, with this reason: there is no step to show (the server shows its own end page).
    case finished(FinishReason)
    /// A template is missing or does not parse (template name, problem): the module was built without its resources.
    case template(String, String)

    /// Says what went wrong, in English.
    public var description: String {
        switch self {
        case .finished(let reason): "the run has ended (\(reason.rawValue)); there is no step to show"
        case .template(let name, let problem): "template '\(name)': \(problem)"
        }
    }
}
