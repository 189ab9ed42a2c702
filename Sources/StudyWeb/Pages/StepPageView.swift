// The view models the templates read (through Mirror). They hold finished texts and attribute values only;
// every decision is made in StepPageBuilder. Templates reach optional members with a leading dot
// (`{{#.hint}}`) so that a nil member never falls through to a same-named member of an enclosing object.
// Mirror sees stored properties only, so flags such as `hasBody` are stored too.

/// The whole page.
struct StepPageView {
    /// The frame shared with the other pages: language, title, stylesheet, tint and script.
    let shell: PageShell
    let studyName: String?
    let progress: ProgressView?
    let errorSummary: ErrorSummaryView?
    let formAction: String
    /// Whether the form posts files (a file question): it is then sent as `multipart/form-data`.
    let postsFiles: Bool
    let csrf: CSRFFieldView
    let stepField: String
    let stepIdentifier: String
    let step: StepView
    let buttons: [ButtonView]
    let s: [String: String]
}

/// The hidden field that carries the CSRF token in a form.
struct CSRFFieldView {
    let name: String
    let token: String
}

struct ProgressView {
    let text: String
    let percent: Int
}

struct ErrorSummaryView {
    let title: String
    let items: [ErrorLinkView]
}

struct ErrorLinkView {
    let href: String
    let message: String
}

struct ButtonView {
    let value: String
    let label: String
    let primary: Bool
    let skipsValidation: Bool
}

struct StepView {
    let title: String?
    let text: String?
    let detail: String?
    let footnote: String?
    let image: ImageView?
    let bodyItems: [BodyItemView]
    let hasBody: Bool
    let learnMore: LearnMoreView?
    let entries: [FormEntryView]
    let table: TableView?
    let webHTML: String?
    let signature: SignatureView?
    let wait: WaitView?
    let permissions: [PermissionView]
    let video: VideoView?
    let review: [ReviewStepView]
    let hasReview: Bool
    let active: ActiveView?
    let measures: ActiveMeasuresView?
}

/// An active step: the element its module fills, with the module's settings and texts, and the module's script.
struct ActiveView {
    let module: String
    let script: String
    let duration: String
    let settings: String
    let texts: String
    let needsScript: String
    let fieldName: String
    let nextLabel: String
}

/// The measures of a task's active steps, shown on its completion step.
struct ActiveMeasuresView {
    let title: String
    let steps: [ActiveStepMeasuresView]
}

struct ActiveStepMeasuresView {
    let title: String
    let incomplete: String?
    let measures: [MeasureView]
}

struct MeasureView {
    let label: String
    let value: String
}

struct ImageView {
    let src: String
    let alt: String
}

struct BodyItemView {
    let text: String?
    let detail: String?
    let styleClass: String
    let image: ImageView?
}

struct LearnMoreView {
    let summary: String
    let title: String?
    let text: String
}

/// A section title, or one question, of a question or form step.
struct FormEntryView {
    let section: SectionView?
    let question: QuestionView?
    var calculated: CalculatedValueView? = nil
}

/// A calculated item (a score): its label and value, or why it has none.
struct CalculatedValueView {
    let id: String
    let label: String
    let detail: String?
    let value: String?
    let problem: String?
}

struct SectionView {
    let title: String?
    let detail: String?
}

struct QuestionView {
    let id: String
    let label: String
    let detail: String?
    let detailId: String
    let hint: String?
    let hintId: String
    let error: String?
    let errorId: String
    let describedBy: String?
    let invalid: Bool
    let required: Bool
    let card: Bool
    /// Grouped controls (radios, checkboxes, several inputs) sit in a fieldset with the question as legend.
    let grouped: Bool
    let learnMore: LearnMoreView?
    let choices: ChoiceGroupView?
    let select: SelectView?
    let pickers: [SelectView]
    let hasPickers: Bool
    let input: InputView?
    let textarea: TextareaView?
    let parts: [InputView]
    let hasParts: Bool
    let locate: Bool
    let dontKnow: DontKnowView?
}

struct ChoiceGroupView {
    let type: String
    let name: String
    let listClass: String
    let options: [OptionView]
    let startLabel: String?
    let endLabel: String?
}

struct OptionView {
    let id: String
    let value: String
    let label: String
    let detail: String?
    let checked: Bool
    let image: ImageView?
    let exclusive: Bool
    let other: OtherFieldView?
}

struct OtherFieldView {
    let optionId: String
    let id: String
    let name: String
    let value: String
    let placeholder: String?
    let label: String
}

struct SelectView {
    let id: String
    let name: String
    let label: String?
    let options: [SelectOptionView]
    let required: Bool
}

struct SelectOptionView {
    let value: String
    let label: String
    let selected: Bool
}

struct InputView {
    let id: String
    let name: String
    let type: String
    let label: String?
    let value: String?
    let inputmode: String?
    let min: String?
    let max: String?
    let step: String?
    let maxlength: String?
    let placeholder: String?
    let autocomplete: String?
    let unit: String?
    let required: Bool
    let pattern: String?
    let patternMessage: String?
    /// A continuous scale's slider, shown by the script and kept in step with the number field.
    let range: RangeView?
    /// For a file input: the media types the picker offers.
    var accept: String? = nil
}

struct RangeView {
    let min: String
    let max: String
    let step: String
}

struct TextareaView {
    let id: String
    let name: String
    let value: String
    let maxlength: String?
    let placeholder: String?
    let required: Bool
}

struct DontKnowView {
    let questionId: String
    let id: String
    let name: String
    let label: String
    let checked: Bool
}

struct TableView {
    let items: [String]
    let bulleted: Bool
}

struct SignatureView {
    let field: String
    let label: String
    let instructions: String
    let noScript: String
    let lineText: String?
    let error: String?
    let stored: StoredSignatureView?
    let typedName: TypedNameView?
}

struct StoredSignatureView {
    let note: String
    let svg: SignatureDrawingView?
    let typedName: String?
}

struct SignatureDrawingView {
    let viewBox: String
    let paths: [String]
}

struct TypedNameView {
    let field: String
    let label: String
    let value: String
}

struct WaitView {
    let message: String
    let seconds: String?
}

struct PermissionView {
    let title: String
    let detail: String?
    /// Allow and Don't allow; nil for the reminder email address.
    let choice: PermissionChoiceView?
    /// The reminder email address's field; nil for other permissions, and where the server sends no email.
    let email: PermissionEmailView?
    /// What the step says instead of the address field where the server sends no email.
    let unavailable: String?
}

struct PermissionChoiceView {
    let name: String
    let id: String
    /// What is asked (`notifications`): the script asks the browser itself for the ones it can.
    let kind: String
    let allowLabel: String
    let denyLabel: String
    let granted: Bool
    let denied: Bool
}

struct PermissionEmailView {
    let name: String
    let id: String
    let label: String
    /// What was typed, after a refused post (its start only); empty otherwise: the address is never stored with the run.
    let value: String
    let hint: String
    let hintId: String
    /// Said when the participant gave an address on an earlier pass of the step.
    let given: String?
    let error: String?
    let errorId: String
    let describedBy: String
}

struct VideoView {
    let src: String
    let captions: String?
    let openLabel: String
}

struct ReviewStepView {
    let title: String
    let items: [ReviewItemView]
    let hasItems: Bool
    let note: String?
    let editValue: String
    let editLabel: String
}

struct ReviewItemView {
    let question: String
    let answer: String
}
