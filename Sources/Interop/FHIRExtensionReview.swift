import Foundation

/// Classifies every extension of a Questionnaire by ``FHIRExtensionPolicy``: on the resource, its items (at any
/// depth), their answer options and every other element (`_text` and the like, `enableWhen`, `initial`, Codings, the
/// values of other extensions). Inside `contained` resources only `modifierExtension`s are looked at.
///
/// Supported extensions are read elsewhere (``FHIRItemExtensions``, the answer options, ``FHIRPathTaskCalculator``);
/// here they are only checked where the policy says more (a `variable`'s language, `sdc-rendering-criticalExtension`).
/// Every other extension becomes one issue naming its URL and JSON path: a note when it is accepted without effect or
/// ignorable, a refusal when ignoring it would change what is asked or how answers are checked.
struct FHIRExtensionReview {
    /// The Questionnaire, for conditions that look beyond the element an extension sits on.
    let resource: [String: Any]
    /// One issue per extension that is not simply supported, in the order met.
    private(set) var issues: [FHIRImportIssue] = []

    /// Reviews every extension of `resource`.
    init(resource: [String: Any]) {
        self.resource = resource
        review(object: resource, path: "", place: .questionnaire, linkId: nil)
    }

    /// Reviews the extensions of `object` (at `place`) and of everything inside it.
    private mutating func review(object: [String: Any], path: String, place: FHIRExtensionPolicy.Place, linkId: String?) {
        for key in object.keys.sorted() {
            let value = object[key]
            let keyPath = Self.join(path, key)
            switch key {
            case "extension", "modifierExtension":
                for (index, element) in (value as? [Any] ?? []).enumerated() {
                    review(extension: element, path: "\(keyPath)[\(index)]", place: place, holder: object, linkId: linkId,
                           isModifier: key == "modifierExtension")
                }
            case "contained" where place == .questionnaire:
                for (index, element) in (value as? [Any] ?? []).enumerated() {
                    reviewModifiers(in: element, path: "\(keyPath)[\(index)]")
                }
            default:
                let childPlace: FHIRExtensionPolicy.Place =
                    switch (key, place) {
                    case ("item", _): .item
                    case ("answerOption", .item), ("valueCoding", .answerOption): .answerOption
                    default: .element
                    }
                if let child = value as? [String: Any] {
                    review(object: child, path: keyPath, place: childPlace, linkId: linkId)
                } else if let elements = value as? [Any] {
                    for (index, element) in elements.enumerated() {
                        guard let child = element as? [String: Any] else { continue }
                        let childLinkId = childPlace == .item ? child["linkId"] as? String ?? "\(keyPath)[\(index)]" : linkId
                        review(object: child, path: "\(keyPath)[\(index)]", place: childPlace, linkId: childLinkId)
                    }
                }
            }
        }
    }

    /// In a contained resource: every `modifierExtension`, at any depth, refuses the form unless the policy reads it there.
    private mutating func reviewModifiers(in value: Any, path: String) {
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                let keyPath = Self.join(path, key)
                if key == "modifierExtension" {
                    for (index, element) in (object[key] as? [Any] ?? []).enumerated() {
                        review(extension: element, path: "\(keyPath)[\(index)]", place: .element, holder: object, linkId: nil,
                               isModifier: true)
                    }
                } else if let child = object[key] {
                    reviewModifiers(in: child, path: keyPath)
                }
            }
        } else if let elements = value as? [Any] {
            for (index, element) in elements.enumerated() { reviewModifiers(in: element, path: "\(path)[\(index)]") }
        }
    }

    /// Classifies one extension (in `holder`'s `extension` or `modifierExtension`) and the extensions on its value.
    private mutating func review(extension element: Any, path: String, place: FHIRExtensionPolicy.Place,
                                 holder: [String: Any], linkId: String?, isModifier: Bool) {
        let object = element as? [String: Any] ?? [:]
        // Extensions on the value itself, such as a cqf-expression making a minValue's bound dynamic.
        for key in object.keys.sorted() where key.hasPrefix("_value") {
            if let valueHolder = object[key] as? [String: Any] {
                review(object: valueHolder, path: "\(path).\(key)", place: .element, linkId: linkId)
            }
        }
        let field = isModifier ? "modifierExtension" : "extension"
        guard let url = object["url"] as? String else {
            if isModifier {
                refuse(linkId, path, nil, "a modifierExtension without a url: it may change the meaning of what it sits on")
            } else {
                issues.append(FHIRImportIssue(kind: .ignoredExtension, linkId: linkId, path: path,
                                              message: "an extension without a url is ignored"))
            }
            return
        }
        guard let entry = FHIRExtensionPolicy.entry(for: url) else {
            if isModifier {
                refuse(linkId, path, url, """
                    \(url) is a modifierExtension StudyKit does not know: it marks itself as changing the meaning of what it \
                    sits on, so the form cannot be run without it
                    """)
            } else {
                issues.append(FHIRImportIssue(kind: .ignoredExtension, linkId: linkId, path: path, message: """
                    \(url) is not an extension StudyKit knows; it is an ordinary extension, which FHIR lets a reader ignore, \
                    so it is ignored
                    """, extensionURL: url))
            }
            return
        }
        let name = entry.canonicalURL.map { "\(url) (read as \($0))" } ?? url
        guard entry.places.contains(place) else {
            let defined = FHIRExtensionPolicy.Place.allCases.filter(entry.places.contains).map(\.description).joined(separator: " or ")
            if isModifier {
                refuse(linkId, path, url, "\(name) is a modifierExtension on \(place.description), where it is not defined, so StudyKit cannot tell what it changes")
            } else {
                issues.append(FHIRImportIssue(kind: .ignoredExtension, linkId: linkId, path: path, message: """
                    \(name) is defined on \(defined), not on \(place.description); it has no meaning here and is ignored
                    """, extensionURL: url))
            }
            return
        }
        switch entry.treatment {
        case .supported:
            if isModifier, !entry.alsoAsModifier {
                refuse(linkId, path, url, "\(name) is read as an extension, not as a \(field) that changes the meaning of what it sits on")
            } else if FHIRExtensionPolicy.canonicalURL(of: url) == FHIRItemExtensions.variableURL {
                checkVariable(object, path: path, linkId: linkId, url: url)
            } else if FHIRExtensionPolicy.canonicalURL(of: url) == FHIRExtensionReview.criticalExtensionURL {
                checkCritical(object, path: path, linkId: linkId, url: url)
            } else if FHIRExtensionPolicy.canonicalURL(of: url) == FHIRExtensionReview.launchContextURL {
                checkLaunchContext(object, path: path, linkId: linkId, url: url)
            }
        case .acceptedWithoutEffect(let why):
            if isModifier {
                refuse(linkId, path, url, "\(name) is a modifierExtension here, which marks it as changing meaning, and StudyKit does not honour it: \(why)")
            } else if let condition = entry.refusedWhen, holds(condition, object, holder: holder) {
                refuse(linkId, path, url, "\(name) is refused here because \(Self.plain(condition.summary)): \(why)")
            } else {
                issues.append(FHIRImportIssue(kind: .acceptedExtension, linkId: linkId, path: path,
                                              message: "\(name) is accepted without effect: \(why)", extensionURL: url))
            }
        case .refused(let why):
            refuse(linkId, path, url, "\(name) is refused: \(why)")
        }
    }

    /// SDC 4.0's modifier extension that lists the extensions a form filler must honour.
    static let criticalExtensionURL = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-rendering-criticalExtension"

    /// SDC's declaration of data handed over at launch (`%patient`).
    static let launchContextURL = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-launchContext"

    /// A `launchContext` other than `patient` (a Patient) is handed nothing, so an expression that reads it is refused.
    private mutating func checkLaunchContext(_ object: [String: Any], path: String, linkId: String?, url: String) {
        guard let name = Self.launchContextName(object) else {
            refuse(linkId, path, url, "launchContext declares no name (its name part's valueCoding code)")
            return
        }
        let parts = (object["extension"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        let types = parts.filter { $0["url"] as? String == "type" }.compactMap { $0["valueCode"] as? String }
        guard name != "patient" || !(types.isEmpty || types.contains("Patient")) else { return }
        guard Self.expressions(in: resource).contains(where: { Self.reads($0, variable: name) }) else { return }
        let why = name == "patient" ? "its type is \(types.joined(separator: ", ")), not Patient" : "StudyKit hands over only %patient"
        refuse(linkId, path, url, "an expression reads %\(name), declared by launchContext, and \(why), so it could not be evaluated")
    }

    /// A `variable` must be a named FHIRPath expression: the calculator evaluates nothing else.
    private mutating func checkVariable(_ object: [String: Any], path: String, linkId: String?, url: String) {
        let expression = object["valueExpression"] as? [String: Any]
        let name = (expression?["name"] as? String).map { "variable '\($0)'" } ?? "a variable"
        guard let language = expression?["language"] as? String, expression?["expression"] is String else {
            refuse(linkId, path, url, "\(name) has no valueExpression with a language and an expression, so what reads it could not be evaluated")
            return
        }
        if language != "text/fhirpath" {
            refuse(linkId, path, url, "\(name) is in \(language); only text/fhirpath is evaluated, so what reads it could not be evaluated")
        }
    }

    /// `sdc-rendering-criticalExtension`: every extension it lists must be supported.
    private mutating func checkCritical(_ object: [String: Any], path: String, linkId: String?, url: String) {
        guard let listed = ["valueCanonical", "valueUri", "valueUrl"].lazy.compactMap({ object[$0] as? String }).first else {
            refuse(linkId, path, url, "sdc-rendering-criticalExtension names no extension (valueCanonical)")
            return
        }
        let treatment = FHIRExtensionPolicy.entry(for: listed)?.treatment
        if case .supported? = treatment { return }
        let why = treatment == nil ? "StudyKit does not know it" : "StudyKit does not support it"
        refuse(linkId, path, url, "the Questionnaire cannot be shown safely without honouring \(listed) (sdc-rendering-criticalExtension), and \(why)")
    }

    /// Whether `condition` holds for `object`, an extension of `holder`.
    private func holds(_ condition: FHIRExtensionPolicy.Condition, _ object: [String: Any], holder: [String: Any]) -> Bool {
        switch condition {
        case .beyondRequired:
            guard let count = Self.integer(object["valueInteger"]) else { return true }
            return count > 1 || (count == 1 && Self.bool(holder["required"]) != true)
        case .valueTrue:
            return Self.bool(object["valueBoolean"]) == true
        case .assemblyNeeded:
            return (object["valueCode"] as? String)?.hasPrefix("assemble-") ?? true
        case .notAskedWhileAnswering:
            return ["display", "display-non-empty"].contains(object["valueCode"] as? String ?? "")
        case .participantNotPerformer:
            let performerURL = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-performerType"
            let performers = (holder["extension"] as? [Any] ?? []).compactMap { element -> String? in
                guard let other = element as? [String: Any], other["url"] as? String == performerURL else { return nil }
                return other["valueCode"] as? String
            }
            return !performers.contains("Patient")
        case .styledText:
            return Self.bool(object["valueBoolean"]) == true && Self.contains(resource, extension: "http://hl7.org/fhir/StructureDefinition/rendering-style")
        }
    }

    private mutating func refuse(_ linkId: String?, _ path: String, _ url: String?, _ message: String) {
        issues.append(FHIRImportIssue(kind: .unsupportedExtension, linkId: linkId, path: path, message: message, extensionURL: url))
    }

    /// `base.tail`, or `tail` at the top.
    static func join(_ base: String, _ tail: String) -> String { base.isEmpty ? tail : "\(base).\(tail)" }

    /// A condition's summary without Markdown code marks, for messages.
    static func plain(_ text: String) -> String { text.replacingOccurrences(of: "`", with: "") }

    /// A JSON `true` or `false` (not a number bridged to `Bool`).
    static func bool(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber else { return value as? Bool }
        return String(cString: number.objCType) == "c" ? number.boolValue : nil
    }

    /// A JSON whole number (not a boolean).
    static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, bool(value) == nil, let exact = Int(exactly: number.doubleValue) else { return nil }
        return exact
    }

    /// Whether `value` holds an extension with `url` at any depth.
    static func contains(_ value: Any, extension url: String) -> Bool {
        if let object = value as? [String: Any] {
            if object["url"] as? String == url { return true }
            return object.values.contains { contains($0, extension: url) }
        }
        return (value as? [Any])?.contains { contains($0, extension: url) } ?? false
    }

    /// The variable name a `launchContext` declares: its `name` part's Coding code (or, in older forms, valueId or
    /// valueString).
    static func launchContextName(_ object: [String: Any]) -> String? {
        let parts = (object["extension"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        guard let name = parts.first(where: { $0["url"] as? String == "name" }) else { return nil }
        return (name["valueCoding"] as? [String: Any])?["code"] as? String ?? name["valueId"] as? String ?? name["valueString"] as? String
    }

    /// The text of every `valueExpression` (and every Expression-valued part of a complex extension) in `value`.
    static func expressions(in value: Any) -> [String] {
        if let object = value as? [String: Any] {
            var found: [String] = []
            if let expression = object["valueExpression"] as? [String: Any], let text = expression["expression"] as? String {
                found.append(text)
            }
            for child in object.values { found += expressions(in: child) }
            return found
        }
        return (value as? [Any])?.flatMap { expressions(in: $0) } ?? []
    }

    /// Whether a FHIRPath text reads `%name` (or `%'name'`, `` %`name` ``).
    static func reads(_ expression: String, variable name: String) -> Bool {
        if expression.contains("%'\(name)'") || expression.contains("%`\(name)`") { return true }
        var search = expression[...]
        while let range = search.range(of: "%\(name)") {
            let next = search[range.upperBound...].first
            if next.map({ !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) ?? true { return true }
            search = search[range.upperBound...]
        }
        return false
    }
}
