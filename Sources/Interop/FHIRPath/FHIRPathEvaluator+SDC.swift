import Foundation

/// The FHIRPath functions of HL7 Structured Data Capture (SDC) that scoring needs: `answers()` and
/// `ordinal()` (also called by its newer name `weight()`).
extension FHIRPathEvaluator {
    /// Extension URLs that carry a score: R4's `ordinalValue`, its R5 successor `itemWeight`, and the older names
    /// ``FHIRExtensionPolicy`` reads as them.
    static let scoreExtensionURLs: Set<String> = FHIRItemExtensions.ordinalURLs

    /// `answers()`: every `answer` of the QuestionnaireResponse items below each input item (a response or
    /// an item), including answers of items nested in items and in answers, in document order (an answer comes
    /// before the answers of items nested in it). An input item's own answers are included when the input is
    /// an item, as in SDC's definition `descendants().where($this is QuestionnaireResponse.item.answer)`.
    func answers(of input: FHIRPathCollection) -> FHIRPathCollection {
        var result: FHIRPathCollection = []
        func collect(_ node: FHIRPathNode) {
            for child in Self.allChildren(of: .node(node)) {
                if child.isQuestionnaireResponseAnswer { result.append(.node(child)) }
                if child.json.objectValue != nil { collect(child) }
            }
        }
        for value in input {
            guard case .node(var node) = value, node.json.objectValue != nil else { continue }
            // An item handed in on its own (say as %context) is read as a QuestionnaireResponse item.
            if node.elementPath == nil, node.json["linkId"] != nil {
                node = FHIRPathNode(
                    json: node.json, fhirType: node.fhirType, location: node.location, enclosingLinkIds: node.enclosingLinkIds,
                    elementPath: "QuestionnaireResponse.item", root: node.root
                )
            }
            collect(node)
        }
        return result
    }

    /// `ordinal()`: the score of each Coding in the input, as a Decimal. For each Coding, the first of:
    /// 1. an `ordinalValue` (or `itemWeight`, or an older name such as `questionnaire-optionScore`) extension on the
    ///    Coding itself;
    /// 2. for the answer of a QuestionnaireResponse item, on the Questionnaire item of that linkId in
    ///    `%questionnaire`: the extension on the `answerOption` whose `valueCoding` matches, else on the matching
    ///    concept of the item's `answerValueSet` (a ValueSet contained in the Questionnaire: `expansion.contains`,
    ///    then `compose.include.concept`);
    /// 3. the extension on the matching concept of a CodeSystem contained in `%questionnaire` whose `url` is the
    ///    Coding's `system`.
    /// Codings match on `code`, and on `system` when both have one. Items that are not Codings, and Codings
    /// with no score found, give nothing (SDC: "the result will be an empty set"). As SDC asks, evaluation
    /// fails when what is needed cannot be resolved: an answer's Coding without `%questionnaire`, a linkId not
    /// in it, or an `answerValueSet` that is not contained in it.
    func ordinals(of input: FHIRPathCollection, function: String, offset: Int) throws(FHIRPathError) -> FHIRPathCollection {
        var result: FHIRPathCollection = []
        for value in input {
            guard case .node(let node) = value, node.fhirType == "Coding", let coding = node.json.objectValue else { continue }
            if let score = try score(of: coding, node: node, function: function, offset: offset) { result.append(.decimal(score)) }
        }
        return result
    }

    private func score(of coding: FHIRJSONObject, node: FHIRPathNode, function: String, offset: Int) throws(FHIRPathError) -> Decimal? {
        if let score = Self.scoreExtension(of: coding) { return score }
        let questionnaire = environment["questionnaire"]?.first.flatMap { value -> FHIRJSONObject? in
            if case .node(let node) = value { return node.json.objectValue }
            return nil
        }
        if node.elementPath == "QuestionnaireResponse.item.answer.value", let linkId = node.enclosingLinkIds.last {
            guard let questionnaire else {
                throw FHIRPathError(.evaluation, "\(function)() needs %questionnaire to score the answer of item '\(linkId)'", at: offset)
            }
            guard let item = Self.item(withLinkId: linkId, in: questionnaire["item"]) else {
                throw FHIRPathError(.evaluation, "\(function)(): %questionnaire has no item with linkId '\(linkId)'", at: offset)
            }
            for option in item["answerOption"]?.arrayValue ?? [] {
                if let optionCoding = option["valueCoding"]?.objectValue, Self.codingsMatch(optionCoding, coding),
                    let score = option.objectValue.flatMap(Self.scoreExtension)
                {
                    return score
                }
            }
            if let reference = item["answerValueSet"]?.stringValue {
                guard let valueSet = Self.containedResource("ValueSet", reference: reference, in: questionnaire) else {
                    throw FHIRPathError(
                        .evaluation,
                        "\(function)(): the answerValueSet '\(reference)' of item '\(linkId)' is not contained in %questionnaire",
                        at: offset
                    )
                }
                if let score = Self.score(of: coding, in: valueSet) { return score }
            }
        }
        if let questionnaire, let system = coding["system"]?.stringValue,
            let codeSystem = Self.containedResource("CodeSystem", reference: system, in: questionnaire),
            let concept = Self.concept(coding["code"]?.stringValue, in: codeSystem["concept"]?.arrayValue ?? [])
        {
            return Self.scoreExtension(of: concept)
        }
        return nil
    }

    private static func scoreExtension(of element: FHIRJSONObject) -> Decimal? {
        for ext in element["extension"]?.arrayValue ?? [] where scoreExtensionURLs.contains(ext["url"]?.stringValue ?? "") {
            if let score = ext["valueDecimal"]?.decimalValue ?? ext["valueInteger"]?.decimalValue { return score }
        }
        return nil
    }

    private static func codingsMatch(_ a: FHIRJSONObject, _ b: FHIRJSONObject) -> Bool {
        guard let code = a["code"]?.stringValue, code == b["code"]?.stringValue else { return false }
        guard let systemA = a["system"]?.stringValue, let systemB = b["system"]?.stringValue else { return true }
        return systemA == systemB
    }

    /// The item with `linkId` anywhere in `items` (linkIds are unique within a Questionnaire).
    private static func item(withLinkId linkId: String, in items: FHIRJSON?) -> FHIRJSONObject? {
        for item in items?.arrayValue ?? [] {
            guard let object = item.objectValue else { continue }
            if object["linkId"]?.stringValue == linkId { return object }
            if let nested = Self.item(withLinkId: linkId, in: object["item"]) { return nested }
        }
        return nil
    }

    /// A resource in `questionnaire.contained` of `resourceType`, named by `#id` or by its `url`.
    private static func containedResource(_ resourceType: String, reference: String, in questionnaire: FHIRJSONObject) -> FHIRJSONObject? {
        for resource in questionnaire["contained"]?.arrayValue ?? [] {
            guard let object = resource.objectValue, object["resourceType"]?.stringValue == resourceType else { continue }
            if reference.hasPrefix("#") ? object["id"]?.stringValue == String(reference.dropFirst()) : object["url"]?.stringValue == reference {
                return object
            }
        }
        return nil
    }

    /// The score of `coding` in a ValueSet: its expansion first, then the concepts its compose includes.
    private static func score(of coding: FHIRJSONObject, in valueSet: FHIRJSONObject) -> Decimal? {
        func search(_ contains: [FHIRJSON]) -> FHIRJSONObject? {
            for entry in contains {
                guard let object = entry.objectValue else { continue }
                if codingsMatch(object, coding) { return object }
                if let nested = search(object["contains"]?.arrayValue ?? []) { return nested }
            }
            return nil
        }
        if let entry = search(valueSet["expansion"]?["contains"]?.arrayValue ?? []), let score = scoreExtension(of: entry) {
            return score
        }
        for include in valueSet["compose"]?["include"]?.arrayValue ?? [] {
            if let system = include["system"]?.stringValue, let codingSystem = coding["system"]?.stringValue, system != codingSystem {
                continue
            }
            if let concept = concept(coding["code"]?.stringValue, in: include["concept"]?.arrayValue ?? []),
                let score = scoreExtension(of: concept)
            {
                return score
            }
        }
        return nil
    }

    /// The concept with `code` in a (possibly nested) concept list.
    private static func concept(_ code: String?, in concepts: [FHIRJSON]) -> FHIRJSONObject? {
        guard let code else { return nil }
        for concept in concepts {
            guard let object = concept.objectValue else { continue }
            if object["code"]?.stringValue == code { return object }
            if let nested = Self.concept(code, in: object["concept"]?.arrayValue ?? []) { return nested }
        }
        return nil
    }
}
