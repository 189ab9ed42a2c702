import Foundation

/// How the Questionnaire importer treats every FHIR R4 core and SDC extension a Questionnaire can carry: one table,
/// which the importer follows and README.md's "Extensions" section repeats.
///
/// Each extension is in one of three classes (``Treatment``):
/// - **supported**: the importer reads it, and the task does what it says;
/// - **accepted without effect**: it does not change what is asked or how answers are checked (presentation,
///   metadata, pre-population hints, extraction after completion), so the import goes on; it is listed as a note
///   (``FHIRImportIssue/Kind/acceptedExtension``) with why it can be left aside. A few are refused under a
///   ``Condition`` that would make ignoring them change the form, such as `questionnaire-minOccurs` above 1;
/// - **refused**: ignoring it would change what is asked or how answers are checked, so the import reports it as a
///   refusal (``FHIRImportIssue/Kind/unsupportedExtension``) naming the extension, its JSON path and why.
///
/// An extension the table does not list is reported (``FHIRImportIssue/Kind/ignoredExtension``) and ignored, as FHIR
/// allows for ordinary extensions; in `modifierExtension`, which marks it as changing the meaning of what it sits on,
/// it refuses the form. Older and non-standard names of listed extensions are read as the extension they name.
///
/// ```swift
/// let entry = FHIRExtensionPolicy.entry(for: "http://hl7.org/fhir/StructureDefinition/questionnaire-minOccurs")
/// print(entry?.treatment)   // acceptedWithoutEffect(why: "With a value of 1 on a required item …")
/// ```
public enum FHIRExtensionPolicy {
    /// What the importer does with an extension.
    public enum Treatment: Hashable, Sendable {
        /// Read by the importer; `what` says what it becomes in the task.
        case supported(what: String)
        /// Left aside, with a note: it does not change what is asked or how answers are checked, for the reason given.
        case acceptedWithoutEffect(why: String)
        /// Refuses the form: ignoring it would change what is asked or how answers are checked, for the reason given.
        case refused(why: String)

        /// The text of the case: what a supported extension becomes, or why an extension is accepted or refused.
        public var reason: String {
            switch self {
            case .supported(let what): what
            case .acceptedWithoutEffect(let why), .refused(let why): why
            }
        }
    }

    /// Where in a Questionnaire an extension sits.
    public enum Place: String, Hashable, Sendable, CaseIterable {
        /// `Questionnaire.extension`: on the resource itself.
        case questionnaire
        /// `item.extension`, at any depth.
        case item
        /// `item.answerOption.extension`, or the extensions of the option's `valueCoding`.
        case answerOption
        /// Any other element: a primitive's `_text`, `_prefix`, `_title`, `_required`, an option's `_valueString` or
        /// `_display`, `enableWhen`, `initial`, a Coding of `code`, the value of another extension, and so on.
        case element
    }

    /// A state of the Questionnaire under which an extension that is otherwise accepted without effect is refused,
    /// because ignoring it would then change what is asked or how answers are checked.
    public enum Condition: String, Hashable, Sendable, CaseIterable {
        /// `questionnaire-minOccurs`: the value is above 1, or 1 on an item that is not required.
        case beyondRequired
        /// The extension's value is `true`.
        case valueTrue
        /// `sdc-questionnaire-assemble-expectation`: the form must be assembled before use.
        case assemblyNeeded
        /// `questionnaire-usageMode`: the item is only for reading a completed response.
        case notAskedWhileAnswering
        /// `sdc-questionnaire-performerType`: the form is not meant to be filled in by the patient.
        case participantNotPerformer
        /// `rendering-styleSensitive`: the styling carries meaning and the form has styled text.
        case styledText

        /// When the extension is refused, as README.md's table says it after "refused when".
        public var summary: String {
            switch self {
            case .beyondRequired: "its value is above 1, or 1 on an item that is not required"
            case .valueTrue: "its value is true"
            case .assemblyNeeded: "its value is `assemble-root`, `assemble-child` or `assemble-root-or-child`"
            case .notAskedWhileAnswering: "its value is `display` or `display-non-empty`"
            case .participantNotPerformer: "no `performerType` of the Questionnaire is `Patient`"
            case .styledText: "its value is true and the Questionnaire has `rendering-style` text"
            }
        }
    }

    /// One extension in the table.
    public struct Entry: Hashable, Sendable {
        /// The extension's canonical URL, or an older or non-standard name (see ``canonicalURL``).
        public let url: String
        /// The URL this one is another name of; nil when ``url`` is the canonical URL.
        public let canonicalURL: String?
        /// Where the extension is defined to sit; elsewhere it has no meaning and is ignored, with a note.
        public let places: Set<Place>
        /// What the importer does with it.
        public let treatment: Treatment
        /// For an extension accepted without effect: when it is refused after all; nil when never.
        public let refusedWhen: Condition?
        /// Whether the importer also reads it in `modifierExtension` (any other extension there refuses the form).
        public let alsoAsModifier: Bool
    }

    /// Every extension the importer knows, canonical URLs first (grouped as README.md groups them), then older and
    /// non-standard names, which share their canonical extension's places and treatment.
    public static let entries: [Entry] = {
        let canonical = canonicalEntries
        let byURL = Dictionary(uniqueKeysWithValues: canonical.map { ($0.url, $0) })
        return canonical + aliases.compactMap { name, target in
            byURL[target].map {
                Entry(url: name, canonicalURL: target, places: $0.places, treatment: $0.treatment, refusedWhen: $0.refusedWhen,
                      alsoAsModifier: $0.alsoAsModifier)
            }
        }
    }()

    /// The entry for `url` (canonical or another name); nil for an extension the table does not list.
    public static func entry(for url: String) -> Entry? { byURL[url] }

    /// `url`'s canonical URL when the table lists it as another name; otherwise `url` itself.
    public static func canonicalURL(of url: String) -> String { byURL[url]?.canonicalURL ?? url }

    /// `canonical` and every other name the table gives it.
    public static func names(of canonical: String) -> Set<String> {
        Set(entries.filter { $0.url == canonical || $0.canonicalURL == canonical }.map(\.url))
    }

    private static let byURL = Dictionary(uniqueKeysWithValues: entries.map { ($0.url, $0) })

    private static let core = "http://hl7.org/fhir/StructureDefinition/"
    private static let sdc = "http://hl7.org/fhir/uv/sdc/StructureDefinition/"
    private static let r5 = "http://hl7.org/fhir/5.0/StructureDefinition/extension-"
    private static let cpg = "http://hl7.org/fhir/uv/cpg/StructureDefinition/"
    private static let argonaut = "http://fhir.org/guides/argonaut-questionnaire/StructureDefinition/"

    private static func supported(_ url: String, _ places: Set<Place>, alsoAsModifier: Bool = false, _ what: String) -> Entry {
        Entry(url: url, canonicalURL: nil, places: places, treatment: .supported(what: what), refusedWhen: nil,
              alsoAsModifier: alsoAsModifier)
    }

    private static func accepted(_ url: String, _ places: Set<Place>, refusedWhen: Condition? = nil, _ why: String) -> Entry {
        Entry(url: url, canonicalURL: nil, places: places, treatment: .acceptedWithoutEffect(why: why), refusedWhen: refusedWhen,
              alsoAsModifier: false)
    }

    private static func refused(_ url: String, _ places: Set<Place>, _ why: String) -> Entry {
        Entry(url: url, canonicalURL: nil, places: places, treatment: .refused(why: why), refusedWhen: nil, alsoAsModifier: false)
    }

    /// Older and non-standard names seen in published Questionnaires, with the canonical URL each is read as.
    private static let aliases: [(String, String)] = [
        (core + "questionnaire-calculatedExpression", sdc + "sdc-questionnaire-calculatedExpression"),
        (core + "questionnaire-initialExpression", sdc + "sdc-questionnaire-initialExpression"),
        (core + "questionnaire-observationLinkPeriod", sdc + "sdc-questionnaire-observationLinkPeriod"),
        (core + "questionnaire-optionScore", core + "ordinalValue"),
        (argonaut + "extension-score", core + "ordinalValue"),
        (core + "terminology-server", core + "preferredTerminologyServer"),
        (sdc + "cpg-itemImage", sdc + "sdc-questionnaire-itemMedia"),
        (sdc + "cpg-responseImage", sdc + "sdc-questionnaire-itemAnswerMedia"),
        (sdc + "sdc-questionnaire-itemContext", sdc + "sdc-questionnaire-itemPopulationContext"),
        (sdc + "sdc-questionnaire-adaptiveUrl", sdc + "sdc-questionnaire-questionnaireAdaptive"),
        (sdc + "sdc-questionnaire-choiceConstraint", r5 + "Questionnaire.item.answerConstraint"),
        (sdc + "sdc-answerValueSetSource", cpg + "cpg-answerValueSetSource"),
    ]

    /// The canonical extensions, grouped as README.md's tables are.
    private static let canonicalEntries: [Entry] = [
        supported(core + "variable", [.questionnaire, .item],
            """
            A named FHIRPath value that calculated items, `enableWhenExpression`s and later variables read as `%name`; a variable on \
            an item is seen by that item and the items inside it. A variable in another language (CQL, `x-fhir-query`) or without an \
            expression is refused: what uses it could not be evaluated.
            """),
        supported(sdc + "sdc-rendering-criticalExtension", [.questionnaire], alsoAsModifier: true,
            """
            Lists extensions a form filler must honour to show the form safely: the form is imported only when StudyKit supports \
            every one listed, and refused otherwise.
            """),
        supported(sdc + "sdc-questionnaire-launchContext", [.questionnaire],
            """
            Declares data the launching system hands over as `%name`. StudyKit hands over `patient`: the participant as a Patient \
            (`id`, `name` as signed on the consent, `birthDate` and `gender` where the study's `patient` setting names the \
            onboarding answers that give them). Any other context (`user`, `encounter`…) is refused when an expression reads it.
            """),
        accepted(core + "cqf-library", [.questionnaire],
            """
            Names CQL libraries for the form's expressions. StudyKit evaluates FHIRPath only and refuses every CQL expression where \
            it appears, so naming a library changes nothing by itself.
            """),
        accepted(core + "rendering-styleSensitive", [.questionnaire], refusedWhen: .styledText,
            """
            Says whether the form's `rendering-style` styling carries meaning. StudyKit shows text without that styling, which is \
            harmless unless the form both says so and has styling.
            """),
        accepted(core + "questionnaire-definitionBased", [.questionnaire], refusedWhen: .valueTrue,
            """
            When true, the form relies on element definitions reached through `item.definition`, which StudyKit does not resolve; \
            the definition calls ignoring it then unsafe.
            """),
        accepted(sdc + "sdc-questionnaire-assemble-expectation", [.questionnaire], refusedWhen: .assemblyNeeded,
            """
            Says whether the form must first be assembled from modules with `$assemble`. An `independent-*` form is complete as it \
            is; an `assemble-*` form is missing the parts its modules would bring.
            """),
        accepted(sdc + "sdc-questionnaire-performerType", [.questionnaire], refusedWhen: .participantNotPerformer,
            """
            Who may fill in the form. StudyKit's participant is the patient, so a form meant only for clinicians or relatives would \
            be answered by the wrong person.
            """),
        refused(sdc + "sdc-questionnaire-assembleContext", [.questionnaire],
            """
            Names a variable the parent form must supply to this module; nothing supplies it here, so expressions that need it could \
            not be evaluated.
            """),
        refused(sdc + "sdc-questionnaire-questionnaireAdaptive", [.questionnaire],
            "An adaptive form: the next questions come from a server (`$next-question`) and are not in the resource."),
        refused(sdc + "sdc-questionnaire-sourceQueries", [.questionnaire],
            "A batch of FHIR queries whose results expressions read; StudyKit runs no queries, so those expressions could not be evaluated."),
        refused(core + "questionnaire-signatureRequired", [.questionnaire, .item],
            """
            The response or the item must be signed; StudyKit does not collect signatures, so it would store responses the form does \
            not allow.
            """),
        refused(core + "questionnaire-constraint", [.questionnaire, .item],
            "A rule the answers must satisfy; StudyKit does not evaluate it, so it would accept answers the form forbids."),
        refused(core + "targetConstraint", [.questionnaire, .item],
            "The newer form of `questionnaire-constraint`: a rule the answers must satisfy, which StudyKit does not evaluate."),
        accepted(sdc + "sdc-questionnaire-assembledFrom", [.questionnaire],
            "Names the form this one was assembled from; provenance only, the form is already complete."),
        accepted(sdc + "sdc-questionnaire-endpoint", [.questionnaire],
            "Where completed responses should be sent; StudyKit's server decides where its responses go."),
        accepted(sdc + "sdc-questionnaire-entryMode", [.questionnaire],
            "Whether earlier answers may be revised; it changes how the form is navigated, not what is asked or how answers are checked."),
        accepted(sdc + "sdc-questionnaire-sourceStructureMap", [.questionnaire],
            """
            A StructureMap that pre-fills answers from other data; only the pre-filled defaults are lost, and the participant \
            answers every question.
            """),
        accepted(sdc + "sdc-questionnaire-targetStructureMap", [.questionnaire],
            "A StructureMap that turns responses into other resources; that happens after the form is completed."),
        accepted(sdc + "sdc-questionnaire-templateExtractBundle", [.questionnaire],
            "A template Bundle for turning responses into resources; used after completion."),
        accepted(sdc + "sdc-questionnaire-answerKey", [.questionnaire],
            "The expected answers of a test; never shown to the participant and not used to check answers."),
        accepted(core + "questionnaire-index-answer", [.questionnaire, .item],
            "Asks a FHIR server to index answers for search; a storage hint."),
        accepted(core + "questionnaire-supportHyperlink", [.questionnaire, .item],
            "A labelled link to help; the questions and their checks do not depend on it."),
        accepted(core + "questionnaire-supportLink", [.questionnaire, .item],
            "A link to help (the older form of `questionnaire-supportHyperlink`); the questions and their checks do not depend on it."),
        accepted(core + "preferredTerminologyServer", [.questionnaire, .item],
            "Where to expand an `answerValueSet`; StudyKit fetches nothing, and an answer list it cannot read is reported on its own."),
        accepted(sdc + "sdc-questionnaire-preferredTerminologyServer", [.questionnaire, .item],
            "The SDC name of `preferredTerminologyServer`: where to expand an `answerValueSet`; StudyKit fetches nothing."),
        accepted(sdc + "sdc-questionnaire-itemExtractionContext", [.questionnaire, .item],
            "The context for turning answers into resources; used after completion."),
        accepted(sdc + "sdc-questionnaire-observation-extract-category", [.questionnaire, .item],
            "The category given to Observations made from answers; used after completion."),
        accepted(sdc + "sdc-questionnaire-observationExtract", [.questionnaire, .item],
            "Asks that answers become Observations; used after completion."),
        accepted(sdc + "sdc-questionnaire-observationExtractEntry", [.questionnaire, .item],
            "Bundle entry details for Observations made from answers; used after completion."),
        accepted(sdc + "sdc-questionnaire-observationLinkPeriod", [.questionnaire, .item],
            "How recent an Observation may be to pre-fill an answer; a pre-population hint, and the participant answers the question."),
        accepted(sdc + "sdc-questionnaire-definitionExtract", [.questionnaire, .item],
            "A target for definition-based extraction; used after completion."),
        accepted(sdc + "sdc-questionnaire-definitionExtractValue", [.questionnaire, .item],
            "A fixed or computed value for extraction; used after completion."),
        accepted(sdc + "sdc-questionnaire-templateExtract", [.questionnaire, .item],
            "A template for turning answers into a resource; used after completion."),
        accepted(sdc + "sdc-questionnaire-extractAllocateId", [.questionnaire, .item],
            "Reserves an identifier for extraction; used after completion."),
        accepted(sdc + "sdc-questionnaire-assembleDefinitionRoot", [.questionnaire, .item],
            """
            Limits which definitions `$assemble` may use; matters only while assembling, and a form that still needs assembling is \
            refused through `assemble-expectation`.
            """),
        accepted(core + "replaces", [.questionnaire, .element],
            "Names an older form this one replaces; provenance."),
        accepted(r5 + "Questionnaire.versionAlgorithm[x]", [.questionnaire],
            "How versions of the form compare; metadata."),
        accepted(r5 + "Questionnaire.copyrightLabel", [.questionnaire],
            "A short copyright line; metadata."),
        supported(core + "questionnaire-itemControl", [.item],
            """
            The control: `radio-button` and `check-box` give a text choice; `drop-down` and `autocomplete` a drop-down list for a \
            single choice; `slider` a scale (integers, with `minValue` and `maxValue`) or a continuous scale (decimals); `spinner` a \
            number field. A code the item type has no such control for is reported and the usual control is shown.
            """),
        supported(core + "minValue", [.item],
            "The smallest number, or the earliest date or date-time, accepted."),
        supported(core + "maxValue", [.item],
            "The largest number, or the latest date or date-time, accepted."),
        supported(core + "minLength", [.item],
            "The fewest characters a text answer may have."),
        supported(core + "regex", [.item],
            "A pattern the whole text answer must match; its message names the `entryFormat` when there is one."),
        supported(core + "entryFormat", [.item],
            "The field's placeholder, and the format named when a `regex` fails."),
        supported(core + "maxDecimalPlaces", [.item],
            "The most digits after the decimal point a decimal or quantity answer may have."),
        supported(core + "questionnaire-sliderStepValue", [.item],
            "The step of an integer slider."),
        supported(core + "questionnaire-unit", [.item],
            "The unit shown with a number and stored with it."),
        supported(core + "questionnaire-hidden", [.item],
            """
            On a calculated item: computed and stored but not shown. On any other item: the item is reported and left out, since it \
            would never be answered.
            """),
        supported(core + "mimeType", [.item],
            "The media types an attachment question accepts."),
        supported(core + "maxSize", [.item],
            "The largest file an attachment question accepts."),
        supported(sdc + "sdc-questionnaire-calculatedExpression", [.item],
            """
            A calculated item (a score) in `text/fhirpath`: computed from the answers so far, shown on a step of its own after the \
            questions it reads (or hidden with `questionnaire-hidden`), stored as the item's answer. Other languages are refused.
            """),
        supported(sdc + "sdc-questionnaire-enableWhenExpression", [.item],
            "A `text/fhirpath` condition: the item is asked only while it gives true (combined with `and` when the item also has `enableWhen`)."),
        supported(sdc + "sdc-questionnaire-initialExpression", [.item],
            """
            A `text/fhirpath` expression whose value pre-fills the question when its step is first shown, such as \
            `%patient.birthDate`; the participant may change it, and a value that cannot be calculated leaves the question empty. \
            Other languages are refused.
            """),
        supported(sdc + "sdc-questionnaire-openLabel", [.item],
            "The label of an open-choice item's free-text choice (otherwise `Other`)."),
        accepted(core + "questionnaire-minOccurs", [.item], refusedWhen: .beyondRequired,
            """
            With a value of 1 on a required item (or 0) it only repeats `required`. A higher value, or 1 on an optional item, asks \
            for answers StudyKit would not insist on.
            """),
        supported(core + "questionnaire-maxOccurs", [.item],
            """
            On a repeating group: the most repetitions asked ("Add another" is not offered after the last). On an item that does \
            not repeat, one answer is all StudyKit takes anyway. On a repeating question it would cap the number of answers, which \
            StudyKit does not check, so there it is refused.
            """),
        accepted(core + "questionnaire-usageMode", [.item], refusedWhen: .notAskedWhileAnswering,
            """
            `capture-display`, `capture` and `capture-display-non-empty` all ask the item, as StudyKit does. `display` and \
            `display-non-empty` items are meant only for reading a completed response and must not be asked.
            """),
        accepted(core + "questionnaire-choiceOrientation", [.item],
            "Lays options out across or down; presentation only."),
        accepted(core + "questionnaire-displayCategory", [.item],
            "Says what kind of text a display item is (instructions, security); the text itself is shown as written."),
        accepted(core + "questionnaire-baseType", [.item],
            "The data type the item was generated from; authoring metadata, the item's `type` decides."),
        accepted(core + "questionnaire-fhirType", [.item],
            "The FHIR type of the element the item came from; metadata, the item's `type` decides."),
        accepted(sdc + "sdc-questionnaire-choiceColumn", [.item],
            "Columns of a multi-column drop-down list; presentation only."),
        accepted(sdc + "sdc-questionnaire-collapsible", [.item],
            "Lets a section be folded away; presentation only."),
        accepted(sdc + "sdc-questionnaire-contextExpression", [.item],
            "Shows related records to help a clinician answer; advice, not part of the question."),
        accepted(sdc + "sdc-questionnaire-optionalDisplay", [.item],
            "Allows a form filler to hide the item, without requiring it; StudyKit shows it."),
        accepted(sdc + "sdc-questionnaire-shortText", [.item],
            "A shorter label for small screens; the full text is shown."),
        accepted(sdc + "sdc-questionnaire-width", [.item],
            "The width of a table column; presentation only."),
        accepted(sdc + "sdc-questionnaire-keyboard", [.item],
            "Which on-screen keyboard to offer; an input hint."),
        accepted(sdc + "sdc-questionnaire-columnCount", [.item],
            "How many columns to lay options out in; presentation only."),
        accepted(sdc + "sdc-questionnaire-unitSupplementalSystem", [.item],
            "Widens the units `sdc-questionnaire-unitOpen` allows; unit choice is refused on its own, so alone it changes nothing."),
        accepted(r5 + "Questionnaire.item.disabledDisplay", [.item],
            "How a disabled item looks (hidden or greyed out); StudyKit skips disabled items, which only changes how they look."),
        refused(core + "questionnaire-unitOption", [.item],
            "Lets the participant choose the unit of a quantity; StudyKit asks for a number in one unit."),
        refused(core + "questionnaire-unitValueSet", [.item],
            "Takes the allowed units from a ValueSet; StudyKit asks for a number in one unit."),
        refused(sdc + "sdc-questionnaire-unitOpen", [.item],
            "Whether units outside the listed ones are allowed; StudyKit does not offer a choice of units."),
        supported(sdc + "sdc-questionnaire-minQuantity", [.item],
            "The smallest quantity accepted, in the item's unit (a bound in another unit is reported and not applied)."),
        supported(sdc + "sdc-questionnaire-maxQuantity", [.item],
            "The largest quantity accepted, in the item's unit (a bound in another unit is reported and not applied)."),
        refused(core + "questionnaire-referenceResource", [.item],
            "The resource types a reference answer may point to; reference items cannot be asked of a participant."),
        refused(core + "questionnaire-referenceProfile", [.item],
            "The profile a reference answer must meet; reference items cannot be asked of a participant."),
        refused(core + "questionnaire-referenceFilter", [.item],
            "The search that finds candidates for a reference answer; reference items cannot be asked of a participant."),
        refused(core + "questionnaire-optionRestriction", [.item],
            "Disables some options while an expression holds; StudyKit would accept options the form disables."),
        refused(sdc + "sdc-questionnaire-answerOptionsToggleExpression", [.item],
            "Enables or disables options while an expression holds; StudyKit would accept options the form disables."),
        refused(sdc + "sdc-questionnaire-answerExpression", [.item],
            "Computes the allowed answers while the form is filled in; the options cannot be known at import, so answers could not be checked."),
        refused(sdc + "sdc-questionnaire-candidateExpression", [.item],
            "Offers candidate answers drawn from the patient's record, which StudyKit does not have."),
        refused(sdc + "sdc-questionnaire-itemPopulationContext", [.item],
            "Repeats a group once for each record found; how often it is asked comes from data StudyKit does not have."),
        refused(sdc + "sdc-questionnaire-isSubject", [.item],
            "Makes the answer the subject of its group; a participant's responses are always about the participant."),
        refused(sdc + "sdc-questionnaire-lookupQuestionnaire", [.item],
            "Fills in another form to create the referenced record; reference items cannot be asked of a participant."),
        refused(sdc + "sdc-questionnaire-subQuestionnaire", [.item],
            "Stands for another Questionnaire to be inserted here; the form is incomplete without it."),
        refused(sdc + "sdc-questionnaire-itemMedia", [.item],
            "An image, sound or video that goes with the question, which StudyKit does not show; the question may not make sense without it."),
        refused(r5 + "Questionnaire.item.answerConstraint", [.item],
            """
            Whether answers outside the options are allowed; StudyKit takes that from the item type (choice or open-choice) and does \
            not apply this setting.
            """),
        supported(core + "ordinalValue", [.answerOption],
            "The option's score, which `ordinal()` (and `weight()`) return in calculated expressions; read on the option or on its Coding."),
        supported(core + "itemWeight", [.answerOption],
            "The newer name of `ordinalValue`: the option's score for `ordinal()` and `weight()`."),
        supported(core + "questionnaire-optionPrefix", [.answerOption],
            "Shown before the option's text, such as `(a)`."),
        supported(core + "questionnaire-optionExclusive", [.answerOption], alsoAsModifier: true,
            """
            On a repeating choice, the option cannot be combined with others: choosing it clears the rest, and an answer that \
            combines it is refused. Older forms carry it as a `modifierExtension`, read the same way.
            """),
        refused(sdc + "sdc-questionnaire-itemAnswerMedia", [.answerOption],
            "An image, sound or video for one option, which StudyKit does not show; the option may be known only by it."),
        accepted(core + "rendering-xhtml", [.element],
            """
            An XHTML version of the text it sits on (`_text`, `_prefix`, `_title`, an option's `_valueString` or `_display`). FHIR \
            requires the plain text to say the same, and StudyKit shows the plain text; only the formatting is lost.
            """),
        accepted(core + "rendering-markdown", [.element],
            "A Markdown version of the text it sits on. StudyKit shows the plain text, which says the same; only the formatting is lost."),
        accepted(core + "rendering-style", [.element],
            "Inline CSS for the text it sits on; presentation only (see `rendering-styleSensitive`)."),
        accepted(core + "translation", [.element],
            "The text in another language. StudyKit shows the text in the Questionnaire's own language, which asks the same question."),
        accepted(core + "language", [.element],
            "The language of one piece of text; it only tells which text is in which language."),
        refused(core + "cqf-expression", [.element],
            """
            Computes the element it sits on while the form is filled in (its text, `required`, `readOnly`, a bound); StudyKit would \
            freeze it to the value written in the file.
            """),
        refused(core + "cqf-calculatedValue", [.element],
            "Computes the element it sits on from a CQL library expression, which StudyKit cannot evaluate."),
        refused(core + "cqf-initialValue", [.element],
            "Computes an initial value from a CQL library expression, which StudyKit cannot evaluate."),
        accepted(core + "designNote", [.questionnaire, .item, .answerOption, .element],
            "A note for form designers; never shown to participants."),
        accepted(core + "display", [.element],
            "A display name for a referenced artifact such as an `answerValueSet`; a label only."),
        accepted(core + "data-absent-reason", [.element],
            "Why a value is missing; a required answer that is still missing fails the usual check."),
        accepted(core + "originalText", [.element],
            "The original text behind coded data; informational."),
        accepted(core + "narrativeLink", [.element],
            "Links an element to the resource's narrative; informational."),
        accepted(core + "questionnaire-derivationType", [.element],
            "How the form derives from the one in `derivedFrom`; provenance."),
        accepted(sdc + "sdc-questionnaire-templateExtractContext", [.element],
            "Part of an extraction template; used after completion."),
        accepted(sdc + "sdc-questionnaire-templateExtractValue", [.element],
            "Part of an extraction template; used after completion."),
        accepted(cpg + "cpg-answerValueSetSource", [.element],
            "Names the source an answer list was taken from; provenance."),
        accepted(core + "structuredefinition-standards-status", [.questionnaire, .element],
            "The standards status of the form or element; publication metadata."),
        accepted(core + "structuredefinition-standards-status-reason", [.questionnaire, .element],
            "Why that status was given; publication metadata."),
        accepted(core + "structuredefinition-fmm", [.questionnaire, .element],
            "The maturity level of the form or element; publication metadata."),
        accepted(core + "structuredefinition-fmm-no-warnings", [.questionnaire],
            "The maturity level without warnings; publication metadata."),
        accepted(core + "structuredefinition-wg", [.questionnaire],
            "The HL7 work group responsible for the form; publication metadata."),
        accepted(core + "structuredefinition-normative-version", [.questionnaire, .element],
            "The first normative version; publication metadata."),
        accepted(core + "structuredefinition-conformance-derivedFrom", [.element],
            "Which guide a status came from; publication metadata."),
    ]
}

extension FHIRExtensionPolicy.Place: CustomStringConvertible {
    /// How messages name the place: `the Questionnaire`, `an item`, `an answer option`, `another element`.
    public var description: String {
        switch self {
        case .questionnaire: "the Questionnaire"
        case .item: "an item"
        case .answerOption: "an answer option"
        case .element: "another element"
        }
    }
}
