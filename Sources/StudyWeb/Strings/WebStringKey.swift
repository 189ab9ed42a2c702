/// The built-in strings of the participant pages. Every built-in language has a text for every key
/// (a test checks it); a study may override any of them, and add keys of its own, per language.
///
/// Texts may hold named placeholders in braces, filled by ``WebStrings/format(_:_:)``: `Step {current} of {total}`.
public enum WebStringKey: String, CaseIterable, Sendable {
    /// Buttons: Next, Back, Skip, Done, the early-termination fallback text, Clear and Edit.
    case next, back, skip, done, end, clear, edit
    /// "Step {current} of {total}".
    case stepProgress
    /// The default text of a learn-more panel's summary.
    case learnMore
    /// The signature pad's label, instructions, and the message shown when the pad cannot run.
    case signHere, signatureInstructions, signatureNeedsScript
    /// The typed-name alternative to drawing, and the note shown once a signature is stored.
    case typeNameInstead, signed
    /// Marks a question that must be answered.
    case required
    /// Error messages the web runner adds to Research's own validation messages.
    case answerRequired, signatureRequired, chooseEveryList, notAChoice
    /// The heading of the error summary, and the word put before the page title when there are errors.
    case errorSummaryTitle, errorTitlePrefix
    /// Answer texts used when a format gives none: "I don't know", "Other", "Yes", "No".
    case dontKnow, other, yes, no
    /// The empty first entry of a drop-down list.
    case chooseFromList
    /// Hints: choose one, choose any, numeric ranges, text length, the unit of a number.
    case chooseOne, chooseAny, hintRange, hintAtLeast, hintAtMost, hintMaxLength, hintUnit
    /// Field labels of composite answers: height, weight and durations in their units.
    case centimetres, kilograms, feet, inches, pounds, ounces, hours, minutes
    /// Field labels of a location answer, and the button that fills in the device's position.
    case address, latitude, longitude, useMyLocation
    /// The label of each list of a multiple value picker: "List {index} of {count}".
    case pickerList
    /// The labels of the top and bottom of the social status ladder when the format gives none.
    case ladderTop, ladderBottom
    /// A request-permissions step's two answers.
    case allow, doNotAllow
    /// A review step's notes for unanswered and skipped steps, and its heading for a signature.
    case notAnswered, skipped, signature
    /// A wait step's message.
    case pleaseWait
    /// A link to open a video step's video directly.
    case openVideo
}
