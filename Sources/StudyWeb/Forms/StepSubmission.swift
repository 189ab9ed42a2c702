import ActiveTasks
import Foundation
import Research

/// A posted step form, read and then applied to the run's ``TaskSession``.
///
/// ```swift
/// let submission = try StepSubmission(form: decodedFormFields)          // [String: [String]]
/// guard submission.hasCSRFToken(expected: cookieToken) else { return .forbidden }
/// let result = try submission.apply(to: &session, allowsTypedSignature: study.allowsTypedSignature)
/// if result.errors.isEmpty { /* store the session, redirect to the step page */ }
/// else { /* store nothing, answer 422 with renderer.render(session:context:errors:result.errors, submitted:submission) */ }
/// ```
///
/// Every answer goes through Research: typed fields through ``TaskSession/setAnswer(text:for:)`` (and so
/// ``AnswerFormat/answer(fromText:locale:timeZone:calendar:)``), choices through ``TaskSession/setAnswer(_:for:)``,
/// which validates them against their format. Applying is all or nothing: the answers are set on a copy of the
/// session, and the session takes the copy only when every answer passed and the move succeeded.
public struct StepSubmission: Sendable {
    /// What the participant pressed.
    public enum Action: Hashable, Sendable {
        /// Next (or Done, which is Next on the last step): store the answers and move on.
        case next
        /// Back: store the answers when they are all valid, then return to the previous step.
        case back
        /// Skip: leave the optional step without an answer (everything on it is cleared).
        case skip
        /// End: the step's early-termination button.
        case end
        /// Clear: remove the stored signature of this step.
        case clearSignature
        /// Edit on a review step: go back to the step with this identifier to change its answer.
        case edit(String)
    }

    /// The name of the hidden field with the CSRF token.
    public static let csrfFieldName = CSRFToken.fieldName
    /// The name of the hidden field with the step identifier the form was rendered for.
    public static let stepFieldName = "_step"
    /// The name of the submit buttons' field.
    public static let actionFieldName = "action"
    /// The hidden field with the drawn signature as JSON: `{"width":…,"height":…,"strokes":[[{"x":…,"y":…,"t":…}]]}`.
    public static let signatureFieldName = "signature"
    /// The text field with a typed name instead of a drawn signature.
    public static let typedNameFieldName = "signature-name"
    /// The hidden field in which an active step's module posts what it measured, as the module's JSON document.
    public static let samplesFieldName = "samples"

    /// How many bytes more than a form's usual limit a post of `step` may have: for an active step whose module may
    /// be posted more than the usual 1 MB of samples (``ActiveModule/maximumPostedBytes(for:)``: a walk's sensors),
    /// twice that (a form's encoding at most about doubles a samples document); 0 for any other step.
    public static func extraFormBytes(for step: Step) -> Int {
        guard case .active(let content) = step.kind, let module = ActiveModules.standard[content.module] else { return 0 }
        let samples = module.maximumPostedBytes(for: content)
        return samples > ActiveModules.usualSampleBytes ? 2 * samples : 0
    }

    /// The step the form was rendered for.
    public let stepIdentifier: String
    /// The button pressed.
    public let action: Action
    /// The CSRF token posted, for the server to compare with the session's (see ``hasCSRFToken(expected:)``).
    public let csrfToken: String?
    /// The step's own fields (answers, signature, permissions), without `_csrf`, `_step` and `action`.
    public let fields: [String: [String]]
    /// The files posted for file questions, by field name; a file input left empty posts no file.
    public let files: [String: UploadedFile]

    /// Reads a posted form, as decoded from `application/x-www-form-urlencoded` or `multipart/form-data` (each
    /// name with its values in order, and the files of a multipart post by field name).
    ///
    /// Throws when `_step` or `action` is missing, repeated or unknown; the step's own fields are checked by ``apply(to:allowsTypedSignature:)``.
    public init(form: [String: [String]], files: [String: UploadedFile] = [:]) throws(StepSubmissionError) {
        func single(_ name: String) throws(StepSubmissionError) -> String {
            guard let values = form[name], let value = values.first, !value.isEmpty else { throw .missingField(name) }
            guard values.count == 1 else { throw .repeatedField(name) }
            return value
        }
        stepIdentifier = try single(Self.stepFieldName)
        let action = try single(Self.actionFieldName)
        switch action {
        case "next", "done": self.action = .next
        case "back": self.action = .back
        case "skip": self.action = .skip
        case "end": self.action = .end
        case "clear": self.action = .clearSignature
        default:
            guard action.hasPrefix("edit:"), action.count > 5 else { throw .unknownAction(action) }
            self.action = .edit(String(action.dropFirst(5)))
        }
        if let tokens = form[Self.csrfFieldName], tokens.count > 1 { throw .repeatedField(Self.csrfFieldName) }
        csrfToken = form[Self.csrfFieldName]?.first
        fields = form.filter { ![Self.csrfFieldName, Self.stepFieldName, Self.actionFieldName].contains($0.key) }
        self.files = files
    }

    /// Whether the posted CSRF token equals `expected`, compared in constant time.
    public func hasCSRFToken(expected: String) -> Bool {
        CSRFToken.matches(csrfToken, expected: expected)
    }

    /// Applies the post to `session`: checks that it is for the current step and has only that step's fields,
    /// reads the answers, then performs the action.
    ///
    /// Returns the problems to show beside the questions (item identifier or `signature` → problem); when there are any, `session` is unchanged. Throws ``StepSubmissionError`` for a post that does
    /// not fit the run; `session` is then unchanged too. `allowsTypedSignature` must match the page's
    /// ``PageContext/allowsTypedSignature``: a typed name is refused where the study does not allow it.
    /// `offersReminderEmail` must match the page's ``PageContext/offersReminderEmail``: where it is false, a reminder
    /// email permission's address is refused and Next records it as `unavailable`.
    ///
    /// A reminder email permission's address never enters the session: Next records only `granted` (an address was
    /// given) or `denied` (none was), and a step come back to with its field empty keeps an earlier `granted` (that
    /// address was added and stays until removed in settings). Back and Skip record nothing of it. Adding the address
    /// itself is the caller's, before applying: see ``reminderEmailAddresses(on:)``.
    public func apply(to session: inout TaskSession, allowsTypedSignature: Bool = false,
                      offersReminderEmail: Bool = false) throws(StepSubmissionError) -> StepSubmissionResult {
        guard let step = session.currentStep else { throw .finished(session.finishReason ?? .completed) }
        guard step.identifier == stepIdentifier else { throw .staleStep(posted: stepIdentifier, current: step.identifier) }
        let page = StepFields(step: step, locale: session.locale, timeZone: session.timeZone, offersReminderEmail: offersReminderEmail)
        for (name, values) in fields {
            guard page.accepts(name, allowsTypedSignature: allowsTypedSignature) else { throw .unknownField(name) }
            if values.count > 1, !page.allowsSeveralValues(name) { throw .repeatedField(name) }
        }
        for name in files.keys where !page.questions.contains(where: { $0.name == name && $0.format.type == .file }) {
            throw .unknownField(name)
        }
        let steps = session.task.steps.map(\.identifier)
        var draft = session
        switch action {
        case .skip:
            do { try draft.skip() } catch { throw .refused(error) }
            session = draft
            return StepSubmissionResult(errors: [:], moved: true)
        case .end:
            do { try draft.terminateEarly() } catch { throw .refused(error) }
            session = draft
            return StepSubmissionResult(errors: [:], moved: true)
        case .edit(let target):
            guard steps.contains(target) else { throw .malformedField(Self.actionFieldName, "names step '\(target)', which the task does not have") }
            do { try draft.revisit(target) } catch { throw .refused(error) }
            session = draft
            return StepSubmissionResult(errors: [:], moved: true)
        case .clearSignature:
            draft.clearSignature()
            session = draft
            return StepSubmissionResult(errors: [:], moved: false)
        case .back:
            guard draft.canGoBack else { throw .refused(.cannotGoBack) }
            var kept = draft
            if try enter(into: &kept, page: page, allowsTypedSignature: allowsTypedSignature, goingOn: false).isEmpty { draft = kept }
            do { try draft.goBack() } catch { throw .refused(error) }
            session = draft
            return StepSubmissionResult(errors: [:], moved: true)
        case .next:
            var errors = try enter(into: &draft, page: page, allowsTypedSignature: allowsTypedSignature, goingOn: true)
            if errors.isEmpty {
                for missing in draft.missingAnswers {
                    errors[missing] = .builtIn(missing == Self.signatureFieldName && page.needsSignature ? .signatureRequired : .answerRequired)
                }
            }
            guard errors.isEmpty else { return StepSubmissionResult(errors: errors, moved: false) }
            do { try draft.goForward() } catch { throw .refused(error) }
            session = draft
            return StepSubmissionResult(errors: [:], moved: true)
        }
    }

    /// The reminder email addresses this post gives to go on with (Next): for each reminder email permission of `step`
    /// (the step it was posted for) whose field is not empty, the permission's identifier and the address as posted.
    /// Empty for any other action, so that only going on from the step adds an address.
    ///
    /// The caller adds each (checked, unconfirmed, its confirmation sent) before ``apply(to:allowsTypedSignature:offersReminderEmail:)``,
    /// and shows a refusal as the permission's ``FieldProblem``, keyed by its identifier: the address is kept out of the
    /// session and so out of the run's result.
    public func reminderEmailAddresses(on step: Step) -> [(permission: String, address: String)] {
        guard action == .next, step.identifier == stepIdentifier, case .requestPermissions(let requests) = step.kind else { return [] }
        return requests.enumerated().compactMap { index, request in
            guard request.kind == .email, let address = fields[StepFields.permissionName(index + 1)]?.first,
                  !address.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            return (request.identifier, address)
        }
    }

    /// Sets every answer, the signature and the permissions of the page on `session`; returns the problems found.
    /// `goingOn` is true for Next: only then is a reminder email permission's outcome recorded.
    private func enter(into session: inout TaskSession, page: StepFields, allowsTypedSignature: Bool,
                       goingOn: Bool) throws(StepSubmissionError) -> [String: FieldProblem] {
        var errors: [String: FieldProblem] = [:]
        for question in page.questions {
            if case .file = question.format {
                // A new file replaces the attached one; an empty file input keeps it (Skip clears it).
                guard let file = files[question.name], !file.data.isEmpty else { continue }
                do {
                    try session.attachFile(file.data, title: file.fileName, contentType: file.contentType, for: question.identifier)
                } catch {
                    if case .invalidAnswer(_, let problem) = error { errors[question.identifier] = .answer(problem) }
                    else { throw .refused(error) }
                }
                continue
            }
            do {
                switch question.reading(from: fields) {
                case .empty: try session.setAnswer(nil, for: question.identifier)
                case .text(let text): try session.setAnswer(text: text, for: question.identifier)
                case .answer(let answer): try session.setAnswer(answer, for: question.identifier)
                case .problem(let key): errors[question.identifier] = .builtIn(key)
                }
            } catch {
                if case .invalidAnswer(_, let problem) = error { errors[question.identifier] = .answer(problem) }
                else { throw .refused(error) }
            }
        }
        for (number, request) in page.permissions.enumerated() {
            let name = StepFields.permissionName(number + 1)
            if request.kind == .email {
                guard goingOn else { continue }
                let given = fields[name]?.first.map { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? false
                let outcome: PermissionOutcome
                if !page.offersReminderEmail {
                    outcome = .unavailable
                } else if given {
                    outcome = .granted
                } else if session.permissionOutcome(request.identifier) == .granted {
                    continue   // given on an earlier pass: that address stays until removed in settings
                } else {
                    outcome = .denied
                }
                do { try session.setPermission(request.identifier, outcome: outcome) } catch { throw .refused(error) }
                continue
            }
            guard let value = fields[name]?.first, !value.isEmpty else { continue }
            guard let outcome = PermissionOutcome(rawValue: value), outcome == .granted || outcome == .denied else {
                throw .malformedField(name, "is '\(value)', not granted or denied")
            }
            do { try session.setPermission(request.identifier, outcome: outcome) } catch { throw .refused(error) }
        }
        if let content = page.active, let samples = fields[Self.samplesFieldName]?.first, !samples.isEmpty, let step = session.currentStep {
            // What the browser measured is checked, and the measures computed, by the step's module on the server.
            guard let module = ActiveModules.standard[content.module] else {
                throw .malformedField(Self.samplesFieldName, "step '\(step.identifier)' is run by '\(content.module)', which this server does not know")
            }
            do {
                let result = try module.result(of: step, content: content, posted: Data(samples.utf8))
                try session.recordActiveResult(result)
                // Each recorder's readings become a file result of the step, as ResearchKit's recorders write them.
                for file in result.files {
                    try session.recordFile(file.data, identifier: file.identifier, fileExtension: "json", contentType: "application/json")
                }
            } catch let error as ActiveSamplesError {
                throw .malformedField(Self.samplesFieldName, error.description)
            } catch let error as TaskSessionError {
                throw .refused(error)
            } catch {
                throw .malformedField(Self.samplesFieldName, "\(error)")
            }
        }
        if page.needsSignature, let signature = try postedSignature(allowsTypedSignature: allowsTypedSignature) {
            do {
                try session.sign(signature)
            } catch {
                if case .invalidAnswer(_, let problem) = error { errors[Self.signatureFieldName] = .answer(problem) }
                else { throw .refused(error) }
            }
        }
        return errors
    }

    /// The signature posted: the pad's strokes, or else a typed name; nil when neither was given.
    private func postedSignature(allowsTypedSignature: Bool) throws(StepSubmissionError) -> Signature? {
        if let json = fields[Self.signatureFieldName]?.first, !json.trimmingCharacters(in: .whitespaces).isEmpty {
            let drawing: Signature
            do {
                drawing = try JSONDecoder().decode(Signature.self, from: Data(json.utf8))
            } catch {
                throw .malformedField(Self.signatureFieldName, "is not signature JSON {\"width\", \"height\", \"strokes\": [[{\"x\", \"y\", \"t\"}]]}")
            }
            if !drawing.isEmpty { return Signature(width: drawing.width, height: drawing.height, strokes: drawing.strokes) }
        }
        if allowsTypedSignature, let name = fields[Self.typedNameFieldName]?.first?.trimmingCharacters(in: .whitespacesAndNewlines),
           !name.isEmpty {
            // A typed name has no drawing area; 1 × 1 satisfies the session's check of the (empty) drawing.
            return Signature(width: 1, height: 1, strokes: [], typedName: name)
        }
        return nil
    }
}

/// What applying a step form did.
public struct StepSubmissionResult: Hashable, Sendable {
    /// Problems to show beside the questions: item identifier (or `signature`) → problem. Empty when accepted.
    public var errors: [String: FieldProblem]
    /// Whether the run moved to another step or ended; false when the same step is to be shown again.
    public var moved: Bool

    /// Creates a result; see the properties.
    public init(errors: [String: FieldProblem], moved: Bool) {
        self.errors = errors
        self.moved = moved
    }
}
