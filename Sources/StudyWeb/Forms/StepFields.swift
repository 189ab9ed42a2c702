import Foundation
import Research

/// Every form field of one step's page: its questions' fields, the signature fields and the permission choices.
/// The renderer names fields with it and the submission checks posts against it, so the two always agree.
struct StepFields {
    /// The questions of the step in order, with field names `q0`, `q1`…
    let questions: [QuestionFields]
    /// The permission requests of a request-permissions step; empty otherwise.
    let permissions: [PermissionRequest]
    /// Whether the step asks for a signature (a signature step, or web content with a signature after it).
    let needsSignature: Bool
    /// The settings of an active step, whose module posts its samples in ``StepSubmission/samplesFieldName``; nil otherwise.
    let active: ActiveStepContent?
    /// Whether a reminder email permission (``PermissionKind/email``) has its address field, named like any permission's
    /// (`perm2`); where the server sends no email it has none, and a post of one is refused.
    let offersReminderEmail: Bool

    init(step: Step, locale: Locale, timeZone: TimeZone, offersReminderEmail: Bool = false) {
        self.offersReminderEmail = offersReminderEmail
        questions = Self.askedQuestions(of: step).enumerated().map { index, question in
            QuestionFields(identifier: question.identifier, format: question.format, name: "q\(index)", locale: locale, timeZone: timeZone)
        }
        if case .requestPermissions(let requests) = step.kind { permissions = requests } else { permissions = [] }
        switch step.kind {
        case .signature: needsSignature = true
        case .webContent(let content): needsSignature = content.showSignatureAfterContent
        default: needsSignature = false
        }
        if case .active(let content) = step.kind { active = content } else { active = nil }
    }

    /// The questions of `step` the participant answers: all but calculated items, which have no field (the
    /// page shows their value, and a post that carries one is refused as an unknown field).
    static func askedQuestions(of step: Step) -> [(identifier: String, format: AnswerFormat, isOptional: Bool)] {
        let calculated = Set(step.calculatedItems.compactMap(\.identifier))
        return step.questions.filter { !calculated.contains($0.identifier) }
    }

    /// The field of the permission numbered `number` (from 1): `perm1`. It holds `granted` or `denied`, or for a
    /// reminder email permission the address.
    static func permissionName(_ number: Int) -> String { "perm\(number)" }

    /// Whether a post of this page may carry the field `name`.
    func accepts(_ name: String, allowsTypedSignature: Bool) -> Bool {
        if needsSignature {
            if name == StepSubmission.signatureFieldName { return true }
            if name == StepSubmission.typedNameFieldName { return allowsTypedSignature }
        }
        if active != nil, name == StepSubmission.samplesFieldName { return true }
        if name.hasPrefix("perm"), let number = Int(name.dropFirst(4)), permissions.indices.contains(number - 1) {
            return permissions[number - 1].kind != .email || offersReminderEmail
        }
        return questions.contains { $0.fieldNames.contains(name) }
    }

    /// Whether the field may carry several values (checkboxes of a multiple choice).
    func allowsSeveralValues(_ name: String) -> Bool {
        questions.contains { $0.allowsSeveralValues(name) }
    }
}
