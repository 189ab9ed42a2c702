/// The little of the FHIR R4 type model the evaluator needs without loading the specification's
/// definitions: choice-element suffixes, and the types of a few common elements.
enum FHIRElementTypes {
    /// The type suffixes a choice element (`value[x]`) can have in R4, with the FHIR type each names.
    static let choiceSuffixes: [String: String] = {
        let primitives = [
            "base64Binary", "boolean", "canonical", "code", "date", "dateTime", "decimal", "id", "instant", "integer",
            "integer64", "markdown", "oid", "positiveInt", "string", "time", "unsignedInt", "uri", "url", "uuid",
        ]
        let complex = [
            "Address", "Age", "Annotation", "Attachment", "CodeableConcept", "CodeableReference", "Coding", "ContactDetail",
            "ContactPoint", "Contributor", "Count", "DataRequirement", "Distance", "Dosage", "Duration", "Expression",
            "HumanName", "Identifier", "Meta", "Money", "ParameterDefinition", "Period", "Quantity", "Range", "Ratio",
            "RatioRange", "Reference", "RelatedArtifact", "SampledData", "Signature", "Timing", "TriggerDefinition",
            "UsageContext",
        ]
        var suffixes: [String: String] = [:]
        for primitive in primitives { suffixes[primitive.prefix(1).uppercased() + primitive.dropFirst()] = primitive }
        for type in complex { suffixes[type] = type }
        return suffixes
    }()

    /// FHIR types whose JSON is a Quantity (a `value` with a `unit`/`code`).
    static let quantityTypes: Set<String> = ["Quantity", "Age", "Count", "Distance", "Duration", "SimpleQuantity", "MoneyQuantity"]

    /// FHIR primitive types whose JSON string is a date, date-time or time.
    static let dateTypes: Set<String> = ["date"]
    static let dateTimeTypes: Set<String> = ["dateTime", "instant"]

    /// FHIR primitive types whose JSON number is a decimal (even when written without a fraction).
    static let decimalTypes: Set<String> = ["decimal"]

    /// The member of `object` that FHIRPath's `name` refers to: the member itself, or else a choice member
    /// `name` + type suffix (`value` finds `valueCoding`). Returns the member name and the type its suffix
    /// names (nil for a plain member).
    static func member(named name: String, in object: FHIRJSONObject) -> (key: String, choiceType: String?)? {
        if object[name] != nil { return (name, nil) }
        for key in object.keys where key.count > name.count && key.hasPrefix(name) {
            let suffix = String(key.dropFirst(name.count))
            if let type = choiceSuffixes[suffix] { return (key, type) }
        }
        return nil
    }

    /// Choice element names common in R4 resources: `children()` uses them to tell that `valueCoding` is the
    /// element `value` of type Coding (navigation by name needs no list: `value` finds `valueCoding`).
    private static let choiceNames = [
        "value", "answer", "initial", "effective", "onset", "abatement", "deceased", "multipleBirth", "occurrence", "performed",
        "timing", "defaultValue", "fixed", "pattern", "minValue", "maxValue", "product", "medication", "serviced", "born",
        "age", "asNeeded", "dose", "rate", "collected", "reported", "subject", "location", "used", "allowed",
    ]

    /// The choice element name and type of a member such as `valueCoding` (`value`, `Coding`); nil for
    /// members that are not choices.
    static func splitChoice(_ key: String) -> (name: String, type: String)? {
        for name in choiceNames where key.count > name.count && key.hasPrefix(name) {
            if let type = choiceSuffixes[String(key.dropFirst(name.count))] { return (name, type) }
        }
        return nil
    }

    /// The FHIR type of the member `name` of an element of type `parentType` found at `parentPath` (its path in its
    /// resource's definition, such as `Patient.contact`), where ``r4Elements`` knows it: the member's type, or
    /// `BackboneElement` for a backbone member (whose own members are then found by its path); nil otherwise.
    static func type(ofMember name: String, in parentType: String?, at parentPath: String? = nil) -> String? {
        switch name {
        case "extension", "modifierExtension": return "Extension"
        case "meta": return "Meta"
        case "coding": return "Coding"
        default: break
        }
        guard let parentType else { return nil }
        let owner = quantityTypes.contains(parentType) ? "Quantity" : parentType == "BackboneElement" ? parentPath ?? "" : parentType
        if let type = r4Elements[owner]?[name] { return type }
        if r4Elements["\(owner).\(name)"] != nil { return "BackboneElement" }
        return nil
    }
}
