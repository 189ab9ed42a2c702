import Foundation

/// Walks a ``FHIRPathSyntax`` tree over a resource: navigation, variables, literals and operators here;
/// functions in `FHIRPathEvaluator+Functions.swift`, the SDC functions in `FHIRPathEvaluator+SDC.swift`,
/// and value semantics (equality, ordering, arithmetic) in ``FHIRPathOperations``.
struct FHIRPathEvaluator {
    /// What `$this`, `$index` and `$total` are while an expression (or a function argument) is evaluated.
    struct Scope {
        /// `$this`: the focus that a leading name or function applies to.
        var this: FHIRPathCollection
        /// `$index` inside an iterating function.
        var index: Int?
        /// `$total` inside `aggregate()`.
        var total: FHIRPathCollection?
    }

    let environment: [String: FHIRPathCollection]
    /// The moment `now()` and `today()` give; nil when the caller gave none.
    let now: FHIRPathInstant?
    private let resource: FHIRPathCollection

    init(resource: FHIRJSON, environment: [String: FHIRPathCollection], now: FHIRPathInstant? = nil) {
        self.resource = environment["resource"] ?? [.resource(resource)]
        self.environment = environment
        self.now = now
    }

    /// Evaluates a whole expression with the context (or the resource) as its focus.
    func evaluate(_ syntax: FHIRPathSyntax) throws(FHIRPathError) -> FHIRPathCollection {
        try evaluate(syntax, in: Scope(this: environment["context"] ?? resource))
    }

    func evaluate(_ syntax: FHIRPathSyntax, in scope: Scope) throws(FHIRPathError) -> FHIRPathCollection {
        switch syntax {
        case .literal(let value, _):
            return [value]
        case .emptyCollection:
            return []
        case .variable(let name, let offset):
            return try variable(name, offset: offset)
        case .specialVariable(let name, _):
            switch name {
            case "this": return scope.this
            case "index": return scope.index.map { [.integer($0)] } ?? []
            default: return scope.total ?? []
            }
        case .member(let base, let name, _):
            let input = try base.map { (base) throws(FHIRPathError) in try evaluate(base, in: scope) } ?? scope.this
            return input.flatMap { Self.members(named: name, of: $0) }
        case .function(let base, let name, let arguments, let offset):
            let input = try base.map { (base) throws(FHIRPathError) in try evaluate(base, in: scope) } ?? scope.this
            return try callFunction(name, on: input, arguments: arguments, scope: scope, hasBase: base != nil, offset: offset)
        case .indexer(let base, let index, let offset):
            let collection = try evaluate(base, in: scope)
            let indexValue = try evaluate(index, in: scope)
            guard let position = try FHIRPathOperations.singleton(indexValue, for: "[]", offset: offset) else { return [] }
            guard case .integer(let integer) = FHIRPathOperations.primitive(position) else {
                throw FHIRPathError(.type, "an indexer needs an Integer, got \(position.typeName)", at: offset)
            }
            return collection.indices.contains(integer) ? [collection[integer]] : []
        case .polarity(let negate, let operand, let offset):
            let values = try evaluate(operand, in: scope)
            guard let value = try FHIRPathOperations.singleton(values, for: negate ? "unary -" : "unary +", offset: offset) else {
                return []
            }
            return [try FHIRPathOperations.polarity(value, negate: negate, offset: offset)]
        case .binary(let op, let left, let right, let offset):
            let leftValues = try evaluate(left, in: scope)
            let rightValues = try evaluate(right, in: scope)
            return try FHIRPathOperations.apply(op, leftValues, rightValues, offset: offset)
        case .typeOperator(let isCast, let operand, let typeName, let offset):
            let values = try evaluate(operand, in: scope)
            guard let value = try FHIRPathOperations.singleton(values, for: isCast ? "as" : "is", offset: offset) else { return [] }
            let matches = FHIRPathOperations.value(value, isOfType: typeName)
            return isCast ? (matches ? [value] : []) : [.boolean(matches)]
        }
    }

    private func variable(_ name: String, offset: Int) throws(FHIRPathError) -> FHIRPathCollection {
        switch name {
        case "resource", "rootResource": return resource
        case "context": return environment["context"] ?? resource
        case "ucum": return [.string("http://unitsofmeasure.org")]
        case "sct": return [.string("http://snomed.info/sct")]
        case "loinc": return [.string("http://loinc.org")]
        case _ where name.hasPrefix("vs-") && environment[name] == nil:
            return [.string("http://hl7.org/fhir/ValueSet/\(name.dropFirst(3))")]
        case _ where name.hasPrefix("ext-") && environment[name] == nil:
            return [.string("http://hl7.org/fhir/StructureDefinition/\(name.dropFirst(4))")]
        default:
            guard let value = environment[name] else {
                throw FHIRPathError(.undefinedVariable, "undefined variable %\(name)", at: offset)
            }
            return value
        }
    }

    /// The children named `name` of one item (array members become one item each; `null`s are skipped). A
    /// name that starts with a capital letter and equals the item's resource type selects the item itself
    /// (as in `QuestionnaireResponse.item`).
    static func members(named name: String, of value: FHIRPathValue) -> FHIRPathCollection {
        guard case .node(let node) = value else { return [] }
        if case .object(let element)? = node.primitiveElement, node.json.objectValue == nil {
            // A primitive's id and extensions, from its `_name` member.
            guard let child = element[name], name == "extension" || name == "id" else { return [] }
            return childNodes(of: node, key: name, name: name, choiceType: nil, json: child).map { .node($0) }
        }
        guard case .object(let object) = node.json else { return [] }
        guard let member = FHIRElementTypes.member(named: name, in: object) else {
            if let first = name.first, first.isUppercase, node.fhirType == name { return [value] }
            return []
        }
        return childNodes(of: node, key: member.key, name: name, choiceType: member.choiceType, json: object[member.key]!,
                          primitiveElements: object["_" + member.key]).map { .node($0) }
    }

    /// All children of one item in member order (not `resourceType`, nor the `_name` members that carry a
    /// primitive's id and extensions).
    static func allChildren(of value: FHIRPathValue) -> [FHIRPathNode] {
        guard case .node(let node) = value, case .object(let object) = node.json else { return [] }
        var children: [FHIRPathNode] = []
        for (key, json) in object where key != "resourceType" && !key.hasPrefix("_") {
            let choice = FHIRElementTypes.splitChoice(key)
            children += childNodes(of: node, key: key, name: choice?.name ?? key, choiceType: choice?.type, json: json,
                                   primitiveElements: object["_" + key])
        }
        return children
    }

    /// The nodes of member `key` of `parent` (one per array element); `primitiveElements` is the `_key` member that
    /// carries the ids and extensions of primitive values (an array, index for index, for an array of primitives).
    private static func childNodes(of parent: FHIRPathNode, key: String, name: String, choiceType: String?, json: FHIRJSON,
                                   primitiveElements: FHIRJSON? = nil) -> [FHIRPathNode]
    {
        let elementPath = childElementPath(parent: parent.elementPath, name: name)
        let enclosingLinkIds =
            parent.isQuestionnaireResponseItem
            ? parent.enclosingLinkIds + [parent.json["linkId"]?.stringValue ?? ""] : parent.enclosingLinkIds
        let declaredType = choiceType ?? FHIRElementTypes.type(ofMember: name, in: parent.fhirType, at: parent.elementPath)
        func node(_ json: FHIRJSON, location: String, primitiveElement: FHIRJSON?) -> FHIRPathNode {
            let resourceType = json["resourceType"]?.stringValue
            return FHIRPathNode(
                json: json, fhirType: resourceType ?? declaredType, location: location, enclosingLinkIds: enclosingLinkIds,
                elementPath: resourceType ?? elementPath, root: parent.root,
                primitiveElement: primitiveElement == .null ? nil : primitiveElement
            )
        }
        switch json {
        case .null:
            return []
        case .array(let elements):
            let extras = primitiveElements?.arrayValue
            return elements.enumerated().compactMap { index, element in
                element == .null ? nil : node(element, location: "\(parent.location).\(key)[\(index)]",
                                              primitiveElement: extras.flatMap { $0.indices.contains(index) ? $0[index] : nil })
            }
        default:
            return [node(json, location: "\(parent.location).\(key)", primitiveElement: primitiveElements)]
        }
    }

    /// The definition path of a child: nested items of a Questionnaire or QuestionnaireResponse are the same
    /// element as top-level items (`QuestionnaireResponse.item`).
    private static func childElementPath(parent: String?, name: String) -> String? {
        guard let parent else { return nil }
        for resourceType in ["QuestionnaireResponse", "Questionnaire"] where name == "item" {
            if parent == resourceType || parent == "\(resourceType).item" || parent == "\(resourceType).item.answer" {
                return "\(resourceType).item"
            }
        }
        return "\(parent).\(name)"
    }
}
