import Foundation

/// The SDC and core extensions of one Questionnaire item that the importer reads, collected in one pass. Older names
/// are read as the extension they name (``FHIRExtensionPolicy/canonicalURL(of:)``); every other extension is classified
/// by ``FHIRExtensionReview``.
struct FHIRItemExtensions {
    static let itemControlURL = "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl"
    static let minValueURL = "http://hl7.org/fhir/StructureDefinition/minValue"
    static let maxValueURL = "http://hl7.org/fhir/StructureDefinition/maxValue"
    /// SDC's bounds of a quantity item (a `valueQuantity`), read as `minValue` and `maxValue` are.
    static let minQuantityURL = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-minQuantity"
    static let maxQuantityURL = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-maxQuantity"
    static let minLengthURL = "http://hl7.org/fhir/StructureDefinition/minLength"
    static let regexURL = "http://hl7.org/fhir/StructureDefinition/regex"
    static let entryFormatURL = "http://hl7.org/fhir/StructureDefinition/entryFormat"
    static let sliderStepURL = "http://hl7.org/fhir/StructureDefinition/questionnaire-sliderStepValue"
    static let unitURL = "http://hl7.org/fhir/StructureDefinition/questionnaire-unit"
    static let hiddenURL = "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden"
    static let calculatedExpressionURL = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression"
    static let enableWhenExpressionURL = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression"
    static let initialExpressionURL = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-initialExpression"
    static let maxOccursURL = "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs"
    static let variableURL = "http://hl7.org/fhir/StructureDefinition/variable"
    static let mimeTypeURL = "http://hl7.org/fhir/StructureDefinition/mimeType"
    static let maxSizeURL = "http://hl7.org/fhir/StructureDefinition/maxSize"
    static let maxDecimalPlacesURL = "http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces"
    static let openLabelURL = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-openLabel"
    static let optionPrefixURL = "http://hl7.org/fhir/StructureDefinition/questionnaire-optionPrefix"
    static let optionExclusiveURL = "http://hl7.org/fhir/StructureDefinition/questionnaire-optionExclusive"
    /// Extensions on answer options and ValueSet concepts that `ordinal()` reads: `ordinalValue`, its successor
    /// `itemWeight`, and their older names.
    static let ordinalURLs: Set<String> = FHIRExtensionPolicy.names(of: "http://hl7.org/fhir/StructureDefinition/ordinalValue")
        .union(FHIRExtensionPolicy.names(of: "http://hl7.org/fhir/StructureDefinition/itemWeight"))

    /// The itemControl code, such as `drop-down` or `slider`.
    var itemControl: String?
    /// The `minValue` extension's value element (`valueInteger`, `valueDecimal`, `valueDate`…), key and value.
    var minValue: (key: String, value: Any)?
    /// The `maxValue` extension's value element.
    var maxValue: (key: String, value: Any)?
    /// The shortest text allowed.
    var minLength: Int?
    /// A regular expression the whole answer must match.
    var regex: String?
    /// A hint of the expected entry format, shown as the field's placeholder.
    var entryFormat: String?
    /// The slider's step.
    var sliderStep: Decimal?
    /// The unit of a quantity or number: display or code of the `questionnaire-unit` Coding.
    var unit: String?
    /// The code of the `questionnaire-unit` Coding (`kg`), to compare a quantity bound's unit with.
    var unitCode: String?
    /// Whether the item is hidden from the participant.
    var hidden = false
    /// The `calculatedExpression`: language, expression and description.
    var calculated: (language: String, expression: String, description: String?)?
    /// Whether the item has an `enableWhenExpression`.
    var enableWhenExpression: (language: String, expression: String)?
    /// The `initialExpression`: language and expression.
    var initialExpression: (language: String, expression: String)?
    /// `questionnaire-maxOccurs`: where it is in the `extension` array, and its value when it is a whole number of 1 or
    /// more (otherwise it is also in ``malformed``).
    var maxOccurs: (index: Int, value: Int?)?
    /// The media types an attachment accepts (`mimeType`, repeatable).
    var mimeTypes: [String] = []
    /// The largest attachment, in bytes (`maxSize`).
    var maxSize: Decimal?
    /// The most digits after the decimal point (`maxDecimalPlaces`).
    var maxDecimalPlaces: Int?
    /// The label of an open-choice item's free-text choice (`openLabel`).
    var openLabel: String?
    /// Extensions that were present but malformed: index and why.
    var malformed: [(index: Int, message: String)] = []

    /// Reads `item`'s `extension` array.
    init(_ item: [String: Any]) {
        for (index, element) in (item["extension"] as? [Any] ?? []).enumerated() {
            // An extension without a url is reported by FHIRExtensionReview.
            guard let object = element as? [String: Any], let url = object["url"] as? String else { continue }
            let valueKey = object.keys.first { $0.hasPrefix("value") }
            let value = valueKey.flatMap { object[$0] }
            let canonical = FHIRExtensionPolicy.canonicalURL(of: url)
            switch canonical {
            case Self.itemControlURL:
                let codings = (value as? [String: Any])?["coding"] as? [Any] ?? []
                itemControl = codings.compactMap { ($0 as? [String: Any])?["code"] as? String }.first
                if itemControl == nil { malformed.append((index, "itemControl has no coded value")) }
            case Self.minValueURL, Self.maxValueURL, Self.minQuantityURL, Self.maxQuantityURL:
                guard let valueKey, let value else { malformed.append((index, "\(url) has no value")); continue }
                if canonical == Self.minValueURL || canonical == Self.minQuantityURL { minValue = (valueKey, value) } else { maxValue = (valueKey, value) }
            case Self.minLengthURL:
                if let length = value as? Int { minLength = length } else { malformed.append((index, "minLength is not an integer")) }
            case Self.regexURL:
                if let text = value as? String { regex = text } else { malformed.append((index, "regex has no valueString")) }
            case Self.entryFormatURL:
                entryFormat = value as? String
            case Self.sliderStepURL:
                if let number = value as? NSNumber { sliderStep = Decimal(string: number.stringValue) }
                else { malformed.append((index, "sliderStepValue is not a number")) }
            case Self.unitURL:
                let coding = value as? [String: Any]
                unit = coding?["display"] as? String ?? coding?["code"] as? String
                unitCode = coding?["code"] as? String
            case Self.hiddenURL:
                hidden = (value as? Bool) == true
            case Self.calculatedExpressionURL, Self.enableWhenExpressionURL, Self.initialExpressionURL:
                let expression = value as? [String: Any]
                guard let text = expression?["expression"] as? String else {
                    malformed.append((index, "\(url) has no valueExpression.expression (references to expressions elsewhere are not supported)"))
                    continue
                }
                let language = expression?["language"] as? String ?? ""
                if canonical == Self.calculatedExpressionURL {
                    calculated = (language, text, expression?["description"] as? String)
                } else if canonical == Self.initialExpressionURL {
                    initialExpression = (language, text)
                } else {
                    enableWhenExpression = (language, text)
                }
            case Self.maxOccursURL:
                let count = FHIRExtensionReview.integer(value).flatMap { $0 >= 1 ? $0 : nil }
                maxOccurs = (index, count)
                if count == nil { malformed.append((index, "questionnaire-maxOccurs needs a valueInteger of 1 or more")) }
            case Self.mimeTypeURL:
                if let code = value as? String { mimeTypes.append(code) } else { malformed.append((index, "mimeType has no valueCode")) }
            case Self.maxSizeURL:
                if let number = value as? NSNumber { maxSize = Decimal(string: number.stringValue) }
                else { malformed.append((index, "maxSize is not a number")) }
            case Self.maxDecimalPlacesURL:
                if let places = value as? Int, FHIRExtensionReview.integer(value) != nil, places >= 0 { maxDecimalPlaces = places }
                else { malformed.append((index, "maxDecimalPlaces is not a whole number of 0 or more")) }
            case Self.openLabelURL:
                if let label = value as? String, !label.trimmingCharacters(in: .whitespaces).isEmpty { openLabel = label }
                else { malformed.append((index, "openLabel has no valueString")) }
            default:
                // Read elsewhere, or classified by FHIRExtensionReview.
                break
            }
        }
    }
}
