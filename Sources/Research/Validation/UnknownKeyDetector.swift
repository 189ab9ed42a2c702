import Foundation
import JSONDiagnostics

/// Finds keys in task JSON that StudyKit does not read, so that a typo such as `"optinal": false` is reported
/// instead of silently ignored.
///
/// The known keys mirror the Codable implementations of the model types; ``TaskValidator`` runs this after
/// decoding succeeded, so every object it visits has a valid shape.
enum UnknownKeyDetector {
    static func problems(in json: JSONTree) -> [TaskDefinitionError] {
        var problems: [TaskDefinitionError] = []
        visit(json, as: .task, path: "", into: &problems)
        return problems
    }

    /// The kinds of JSON objects in a task file.
    private indirect enum Shape: Sendable {
        case task, step, answerFormat, formItem, calculation, textChoice, otherChoice, imageChoice, image, bodyItem, learnMore
        case earlyTermination, permission, dontKnow, valuePicker, navigationRule, conditionalDestination
        case map(Shape)
        case array(Shape)
        case conditionOrText
    }

    private static let commonStepKeys: Set<String> = [
        "type", "identifier", "title", "text", "detailText", "footnote", "optional", "image", "bodyItems", "learnMore", "earlyTermination",
    ]

    private static let stepKeys: [String: Set<String>] = [
        "instruction": [], "completion": [], "question": ["answerFormat"], "form": ["items", "cardStyle"],
        "review": ["excludeInstructionSteps"], "webContent": ["html", "showSignatureAfterContent", "requiresScrollToBottom"], "table": ["items", "bulleted"],
        "signature": ["signatureLineText"], "wait": ["duration", "indicator"], "requestPermissions": ["permissions"],
        "videoInstruction": ["videoURL", "thumbnailTime", "captionsURL"],
    ]

    /// The keys of each answer format type, from the format's own file (``AnswerFormatType/jsonKeys``).
    private static let formatKeys: [String: Set<String>] = Dictionary(uniqueKeysWithValues: AnswerFormatType.allCases.map {
        ($0.rawValue, $0.jsonKeys)
    })

    /// Known keys of every step type, computed once.
    private static let stepTables: [String: [String: Shape?]] = Dictionary(uniqueKeysWithValues: stepKeys.keys.map {
        ($0, keys(of: .step, type: $0))
    })

    /// Known keys of every answer format type, computed once.
    private static let formatTables: [String: [String: Shape?]] = Dictionary(uniqueKeysWithValues: formatKeys.keys.map {
        ($0, keys(of: .answerFormat, type: $0))
    })

    /// Known keys of the shapes whose keys do not depend on a type, computed once.
    private static let fixedTables: [String: [String: Shape?]] = {
        let shapes: [Shape] = [.task, .formItem, .calculation, .textChoice, .otherChoice, .imageChoice, .image, .bodyItem, .learnMore,
                               .earlyTermination, .permission, .dontKnow, .valuePicker, .navigationRule, .conditionalDestination]
        return Dictionary(uniqueKeysWithValues: shapes.map { ("\($0)", keys(of: $0, type: nil)) })
    }()

    /// The known keys of an object of `shape`, from the tables.
    private static func knownKeys(of shape: Shape, object: JSONTree) -> [String: Shape?] {
        let type: String? = if case .string(let text)? = object["type"] { text } else { nil }
        return switch shape {
        case .step: stepTables[type ?? ""] ?? [:]
        case .answerFormat: formatTables[type ?? ""] ?? [:]
        default: fixedTables["\(shape)"] ?? [:]
        }
    }

    /// Known keys of each object shape (of the given step or format type), and the shapes of their values that
    /// are objects themselves.
    private static func keys(of shape: Shape, type: String?) -> [String: Shape?] {
        func plain(_ names: Set<String>) -> [String: Shape?] { Dictionary(uniqueKeysWithValues: names.map { ($0, nil) }) }
        switch shape {
        case .task:
            return ["identifier": nil, "title": nil, "steps": .array(.step), "navigationRules": .map(.navigationRule),
                    "skipRules": .map(.conditionOrText)]
        case .step:
            var keys = plain(commonStepKeys.union(stepKeys[type ?? ""] ?? []))
            keys["image"] = .image
            keys["bodyItems"] = .array(.bodyItem)
            keys["learnMore"] = .learnMore
            keys["earlyTermination"] = .earlyTermination
            if type == "question" { keys["answerFormat"] = .answerFormat }
            if type == "form" { keys["items"] = .array(.formItem) }
            if type == "requestPermissions" { keys["permissions"] = .array(.permission) }
            return keys
        case .answerFormat:
            let type = type ?? ""
            var keys = plain((formatKeys[type] ?? []).union(["type"]))
            if keys["dontKnow"] != nil { keys["dontKnow"] = .dontKnow }
            if keys["choices"] != nil { keys["choices"] = type == "imageChoice" ? .array(.imageChoice) : .array(.textChoice) }
            if keys["pickers"] != nil { keys["pickers"] = .array(.valuePicker) }
            return keys
        case .formItem:
            var keys = plain(["identifier", "text", "sectionTitle", "detailText", "answerFormat", "optional", "placeholder", "learnMore",
                              "calculation", "hidden", "initialValue"])
            keys["answerFormat"] = .answerFormat
            keys["learnMore"] = .learnMore
            keys["calculation"] = .calculation
            keys["initialValue"] = .calculation
            return keys
        case .calculation: return plain(["language", "expression", "description"])
        case .textChoice:
            var keys = plain(["text", "value", "detailText", "exclusive", "other"])
            keys["other"] = .otherChoice
            return keys
        case .otherChoice: return plain(["placeholder", "textRequired"])
        case .imageChoice:
            var keys = plain(["image", "selectedImage", "text", "value"])
            keys["image"] = .image
            keys["selectedImage"] = .image
            return keys
        case .image: return plain(["url", "altText"])
        case .bodyItem:
            var keys = plain(["text", "detailText", "style", "image"])
            keys["image"] = .image
            return keys
        case .learnMore: return plain(["linkText", "title", "text", "html"])
        case .earlyTermination: return plain(["buttonText"])
        case .permission: return plain(["identifier", "kind", "title", "detailText"])
        case .dontKnow: return plain(["text"])
        case .valuePicker:
            return ["choices": .array(.textChoice)]
        case .navigationRule:
            var keys = plain(["goTo", "rules", "otherwise"])
            keys["rules"] = .array(.conditionalDestination)
            return keys
        case .conditionalDestination:
            return ["if": .conditionOrText, "goTo": nil]
        case .map, .array, .conditionOrText:
            return [:]
        }
    }

    /// Reports the unknown keys of `value`, read as `shape`, in the order the file has them.
    private static func visit(_ value: JSONTree, as shape: Shape, path: String, into problems: inout [TaskDefinitionError]) {
        switch shape {
        case .array(let element):
            guard case .array(let array) = value else { return }
            for (index, item) in array.enumerated() { visit(item, as: element, path: "\(path)[\(index)]", into: &problems) }
        case .map(let element):
            guard case .object(let members) = value else { return }
            for member in members { visit(member.value, as: element, path: join(path, member.key), into: &problems) }
        case .conditionOrText:
            return // conditions are checked by their own decoder, which rejects unknown operators and keys it needs
        default:
            guard case .object(let members) = value else { return }
            let known = knownKeys(of: shape, object: value)
            for member in members {
                guard let child = known[member.key] else {
                    let suggestion = JSONDiagnostics.closestKey(to: member.key, among: Array(known.keys)).map { " (did you mean '\($0)'?)" } ?? ""
                    problems.append(TaskDefinitionError(path: join(path, member.key), message: "unknown key; StudyKit does not read it\(suggestion)"))
                    continue
                }
                if let child { visit(member.value, as: child, path: join(path, member.key), into: &problems) }
            }
        }
    }

    private static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
