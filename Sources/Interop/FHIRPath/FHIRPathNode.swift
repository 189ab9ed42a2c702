/// An element of a FHIR resource found by a FHIRPath expression: its JSON, its FHIR type where known, and
/// where it sits in its resource.
public struct FHIRPathNode: Sendable, Hashable {
    /// The element's JSON (for a primitive, the JSON value itself).
    public let json: FHIRJSON
    /// The FHIR type where the evaluator knows it: a resource's `resourceType`, the type named by a choice
    /// element's suffix (`valueCoding` gives `Coding`, `valueDecimal` gives `decimal`), or the type of a
    /// well-known element (`extension` is `Extension`, `Quantity.value` is `decimal`); nil otherwise.
    public let fhirType: String?
    /// Where the element is, from its resource: `QuestionnaireResponse.item[0].answer[0].valueCoding`.
    public let location: String
    /// The linkIds of the QuestionnaireResponse items that enclose this element, outermost first (empty outside
    /// a QuestionnaireResponse's items); `ordinal()` uses them to find the Questionnaire item of an answer.
    let enclosingLinkIds: [String]
    /// The element's path in its resource's definition, choice suffixes removed, where known:
    /// `QuestionnaireResponse.item.answer.value` (nested items are `QuestionnaireResponse.item` too).
    let elementPath: String?
    /// Which variable or resource the element was reached from, so equal JSON in two places stays two nodes.
    let root: String
    /// For a primitive, its `_name` member in the JSON (the object holding its `id` and `extension`), if any.
    let primitiveElement: FHIRJSON?

    /// A resource (or any JSON) at the root of navigation, such as the resource an expression runs on or a
    /// variable's value; `root` tells nodes from different variables apart.
    public init(resource json: FHIRJSON, root: String = "resource") {
        let resourceType = json["resourceType"]?.stringValue
        self.init(
            json: json, fhirType: resourceType, location: resourceType ?? "%\(root)", enclosingLinkIds: [], elementPath: resourceType,
            root: root
        )
    }

    init(
        json: FHIRJSON, fhirType: String?, location: String, enclosingLinkIds: [String], elementPath: String?, root: String,
        primitiveElement: FHIRJSON? = nil
    ) {
        self.primitiveElement = primitiveElement
        self.json = json
        self.fhirType = fhirType
        self.location = location
        self.enclosingLinkIds = enclosingLinkIds
        self.elementPath = elementPath
        self.root = root
    }

    /// Whether this is an `answer` of a QuestionnaireResponse item (reached through the response's items).
    var isQuestionnaireResponseAnswer: Bool {
        elementPath == "QuestionnaireResponse.item.answer"
    }

    /// Whether this is an `item` of a QuestionnaireResponse.
    var isQuestionnaireResponseItem: Bool {
        elementPath == "QuestionnaireResponse.item"
    }
}
