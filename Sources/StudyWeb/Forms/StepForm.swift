import Foundation
import Research

/// The fields a client posts for one step, described for clients that draw their own form (the REST API's native
/// apps and scripts) rather than the server's page.
///
/// The names and values are exactly those of the step's web form, so that a post described here goes through the same
/// ``StepSubmission`` and the same checks as a browser's:
///
/// ```swift
/// let form = StepForm(step: step, locale: session.locale, timeZone: session.timeZone, allowsTypedSignature: true)
/// for field in form.fields { print(field.name, field.input, field.choices.map(\.text)) }   // q0 choice ["None", …]
/// ```
public struct StepForm: Sendable {
    /// What kind of value a field takes.
    public enum Input: String, Sendable, CaseIterable {
        /// Free text (a text answer, the text of an "other" choice, an address).
        case text
        /// A number written with `.` as the decimal separator.
        case number
        /// One choice, posted as its `number` (from 1).
        case choice
        /// Any number of choices, each posted as its `number`: the field repeats.
        case choices
        /// `yes` or `no`.
        case yesNo
        /// A day, `YYYY-MM-DD`.
        case date
        /// A day and time in the participant's time zone, `YYYY-MM-DDTHH:MM`.
        case dateTime
        /// A time of day, `HH:MM`.
        case time
        /// An email address: an email question's answer, or a reminder email permission's address (which may be left
        /// empty, and is never stored with the run).
        case email
        /// Any non-empty value answers "I don't know".
        case dontKnow
        /// A file, uploaded with the web page's form (multipart).
        case file
        /// A drawn signature as JSON: `{"width", "height", "strokes": [[{"x", "y", "t"}]]}`.
        case signature
        /// A typed name in place of a drawn signature.
        case typedName
        /// `granted` or `denied`, for one permission request. (A reminder email permission's field is `email`.)
        case permission
        /// An active step's measurements, as its module's JSON document.
        case samples
    }

    /// One choice of a choice field.
    public struct Choice: Hashable, Sendable {
        /// What the field posts for this choice.
        public let number: Int
        /// What the participant reads.
        public let text: String
        /// Whether choosing it clears the other choices.
        public let isExclusive: Bool
    }

    /// One field of the form.
    public struct Field: Hashable, Sendable {
        /// The name to post the value under (`q0`, `q0-ft`, `signature`, `perm1`…).
        public let name: String
        /// The question (item) the field answers; nil for the signature, permission and samples fields.
        public let question: String?
        /// The kind of value.
        public let input: Input
        /// What the participant reads beside it: the form item's text, the permission's title; nil for a question
        /// step's single field, whose text is the step's.
        public let label: String?
        /// Whether Next may leave it empty. A question step's answer is needed for Next (an optional step is left
        /// unanswered with Skip); a form item says for itself.
        public let isOptional: Bool
        /// The choices of a `choice` or `choices` field, in order.
        public let choices: [Choice]
        /// The unit a number is written in (`cm`, `ft`, `kg`, `h`…), or the numeric format's own unit.
        public let unit: String?
        /// The smallest and largest number the answer takes, where its format says.
        public let minimum: Double?
        public let maximum: Double?
    }

    /// Every field, in the order of the web form.
    public let fields: [Field]

    /// The form of `step` for a participant in `locale` and `timeZone` (which choose metric or US units); the typed-name
    /// field is listed only when `allowsTypedSignature`, and a reminder email permission's field only when
    /// `offersReminderEmail` (the server sends email).
    public init(step: Step, locale: Locale, timeZone: TimeZone, allowsTypedSignature: Bool, offersReminderEmail: Bool = false) {
        let page = StepFields(step: step, locale: locale, timeZone: timeZone, offersReminderEmail: offersReminderEmail)
        var labels: [String: String] = [:]
        if case .form(let form) = step.kind {
            for item in form.items { if let identifier = item.identifier, let text = item.text { labels[identifier] = text } }
        }
        // As in ResearchKit, Next on a question step needs its answer (an optional step is left with Skip); a form's
        // items say each for themselves.
        var optional = Dictionary(StepFields.askedQuestions(of: step).map { ($0.identifier, $0.isOptional) }, uniquingKeysWith: { first, _ in first })
        if case .question = step.kind { optional[step.identifier] = false }
        var fields: [Field] = []
        for question in page.questions {
            let isOptional = optional[question.identifier] ?? true
            fields += Self.fields(of: question, label: labels[question.identifier], isOptional: isOptional)
        }
        for (index, request) in page.permissions.enumerated() {
            if request.kind == .email, !offersReminderEmail { continue }
            fields.append(Field(name: StepFields.permissionName(index + 1), question: nil, input: request.kind == .email ? .email : .permission,
                                label: request.title, isOptional: true, choices: [], unit: nil, minimum: nil, maximum: nil))
        }
        if page.active != nil {
            fields.append(Field(name: StepSubmission.samplesFieldName, question: nil, input: .samples, label: nil, isOptional: false,
                                choices: [], unit: nil, minimum: nil, maximum: nil))
        }
        if page.needsSignature {
            fields.append(Field(name: StepSubmission.signatureFieldName, question: nil, input: .signature, label: nil, isOptional: false,
                                choices: [], unit: nil, minimum: nil, maximum: nil))
            if allowsTypedSignature {
                fields.append(Field(name: StepSubmission.typedNameFieldName, question: nil, input: .typedName, label: nil, isOptional: false,
                                    choices: [], unit: nil, minimum: nil, maximum: nil))
            }
        }
        self.fields = fields
    }

    /// The fields of one question: one, or one per part of a composite answer, then its "other" texts and "I don't know".
    private static func fields(of question: QuestionFields, label: String?, isOptional: Bool) -> [Field] {
        func field(_ name: String, _ input: Input, choices: [Choice] = [], unit: String? = nil,
                   minimum: Double? = nil, maximum: Double? = nil) -> Field {
            Field(name: name, question: question.identifier, input: input, label: label, isOptional: isOptional, choices: choices,
                  unit: unit, minimum: minimum, maximum: maximum)
        }
        func numbered(_ choices: [TextChoice]) -> [Choice] {
            choices.enumerated().map { Choice(number: $0.offset + 1, text: $0.element.text, isExclusive: $0.element.exclusive) }
        }
        let options = question.options.map { Choice(number: $0.number, text: $0.text, isExclusive: $0.exclusive) }
        var fields: [Field]
        switch question.format {
        case .boolean: fields = [field(question.name, .yesNo)]
        case .textChoice(let format): fields = [field(question.name, format.style == .multiple ? .choices : .choice, choices: options)]
        case .imageChoice(let format): fields = [field(question.name, format.style == .multiple ? .choices : .choice, choices: options)]
        case .valuePicker, .textScale: fields = [field(question.name, .choice, choices: options)]
        case .multipleValuePicker(let format):
            fields = format.pickers.indices.map { field(question.part("p\($0 + 1)"), .choice, choices: numbered(format.pickers[$0].choices)) }
        case .scale(let format): fields = [field(question.name, .number, minimum: Double(format.minimum), maximum: Double(format.maximum))]
        case .continuousScale(let format):
            fields = [field(question.name, .number, unit: format.percentStyle ? "%" : nil, minimum: format.minimum, maximum: format.maximum)]
        case .numeric(let format):
            fields = [field(question.name, .number, unit: format.unit, minimum: format.minimum.map(QuestionFields.double),
                            maximum: format.maximum.map(QuestionFields.double))]
        case .age, .sesLadder: fields = [field(question.name, .number)]
        case .height:
            fields = question.usesUSCustomary ? [field(question.part("ft"), .number, unit: "ft"), field(question.part("in"), .number, unit: "in")]
                : [field(question.name, .number, unit: "cm")]
        case .weight:
            fields = question.usesUSCustomary
                ? question.fieldNames.sorted().map { field($0, .number, unit: String($0.suffix(2))) }
                : [field(question.name, .number, unit: "kg")]
        case .timeInterval: fields = [field(question.part("h"), .number, unit: "h"), field(question.part("m"), .number, unit: "min")]
        case .location:
            fields = [field(question.part("address"), .text), field(question.part("lat"), .number, unit: "°"), field(question.part("lon"), .number, unit: "°")]
        case .date: fields = [field(question.name, .date)]
        case .dateTime: fields = [field(question.name, .dateTime)]
        case .timeOfDay: fields = [field(question.name, .time)]
        case .email: fields = [field(question.name, .email)]
        case .text: fields = [field(question.name, .text)]
        case .file: fields = [field(question.name, .file)]
        }
        // An "other" text and "I don't know" are never needed: the choice or the answer is.
        func extra(_ name: String, _ input: Input) -> Field {
            Field(name: name, question: question.identifier, input: input, label: label, isOptional: true, choices: [], unit: nil,
                  minimum: nil, maximum: nil)
        }
        for option in question.options where option.other != nil { fields.append(extra(question.otherName(option.number), .text)) }
        if let dontKnow = question.dontKnowName { fields.append(extra(dontKnow, .dontKnow)) }
        return fields
    }
}
