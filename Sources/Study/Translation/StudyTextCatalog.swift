import JSONDiagnostics

/// One text a participant reads, found in a study folder's file: where it is, what it says in the study's first
/// language, and a note for translators on what it is.
public struct StudyText: Hashable, Sendable {
    /// The file, relative to the study folder (`study.yaml`, `surveys/pain.json`).
    public var file: String
    /// Where in the file, with list elements named by their identifier where they have one:
    /// `tasks[pain].title`, `steps[painLocation].answerFormat.choices[front].text`, `item[2.1].text`.
    public var key: String
    /// The text in the study's first language.
    public var source: String
    /// What the text is, for the translator (`a step's title`, `a choice`).
    public var note: String
}

/// The texts of a study folder's documents that participants read, and those documents with the texts of another
/// language put in: the one place that knows which values of a study file, a task file or a FHIR Questionnaire are
/// words rather than identifiers, numbers or settings.
///
/// ```swift
/// let texts = StudyTextCatalog.texts(in: tree, file: "surveys/pain.json", kind: .task)
/// let japanese = StudyTextCatalog.translating(tree, kind: .task, with: ["steps[painLevel].title": "痛み"])
/// ```
public enum StudyTextCatalog {
    /// Which rules find a document's texts.
    public enum DocumentKind: Hashable, Sendable {
        /// `study.yaml` (or `study.json`).
        case study
        /// A StudyKit task file: the onboarding or a survey.
        case task
        /// A FHIR Questionnaire.
        case questionnaire
        /// A FHIR ValueSet the study's Questionnaires take answers from.
        case valueSet
        /// A featured card's article: its whole Markdown is one text, keyed ``articleKey``.
        case article
    }

    /// The key of an article's one text.
    public static let articleKey = "markdown"

    /// The keys whose string values are texts, with the translator's note, by document kind.
    static let textKeys: [DocumentKind: [String: String]] = [
        .task: ["title": "a title", "text": "a text", "detailText": "a detail under a text", "footnote": "a footnote",
                "placeholder": "an empty field's hint", "minimumDescription": "the label of a scale's low end",
                "maximumDescription": "the label of a scale's high end", "invalidMessage": "the message of an answer that does not match",
                "signatureLineText": "the line under a signature", "html": "a page of HTML (keep the tags)",
                "altText": "an image's description", "buttonText": "a button", "linkText": "a link", "sectionTitle": "a section's title",
                "yesText": "the yes answer", "noText": "the no answer", "topRungText": "the top rung's label",
                "bottomRungText": "the bottom rung's label", "unit": "a unit"],
        .study: ["title": "a title", "instructions": "a card's instructions", "text": "a text", "role": "a contact's role",
                 "legend": "a chart's legend", "label": "a label", "organization": "an organization's name"],
        .questionnaire: ["title": "the questionnaire's title", "text": "an item's text", "display": "an answer's text",
                         "valueString": "an answer's text"],
        .valueSet: ["display": "an answer's text"],
        .article: [articleKey: "an article in Markdown: keep its headings, lists and links"],
    ]

    /// The keys of list elements that name them in a text's key, in order of preference.
    static let elementNames = ["id", "identifier", "linkId", "value", "code"]

    /// Every text of `tree` (a document of `file`) in document order.
    public static func texts(in tree: JSONTree, file: String, kind: DocumentKind) -> [StudyText] {
        var found: [StudyText] = []
        _ = visit(tree, path: "", kind: kind, depth: 0) { key, text, note in
            found.append(StudyText(file: file, key: key, source: text, note: note))
            return nil
        }
        return found
    }

    /// `tree` with each text whose key is in `translations` replaced by its translation; every other value as it was.
    public static func translating(_ tree: JSONTree, kind: DocumentKind, with translations: [String: String]) -> JSONTree {
        guard !translations.isEmpty else { return tree }
        return visit(tree, path: "", kind: kind, depth: 0) { key, _, _ in translations[key] }
    }

    /// Walks `tree`, calling `text` with each text's key, value and note; a non-nil answer replaces the value.
    private static func visit(_ tree: JSONTree, path: String, kind: DocumentKind, depth: Int,
                              _ text: (String, String, String) -> String?) -> JSONTree {
        switch tree {
        case .object(let members):
            var changed = members
            for (index, member) in members.enumerated() {
                let key = path.isEmpty ? member.key : path + "." + member.key
                if case .string(let value) = member.value, let note = note(of: member.key, in: path, at: depth, kind: kind) {
                    if let replacement = text(key, value, note) { changed[index].value = .string(replacement) }
                } else {
                    changed[index].value = visit(member.value, path: key, kind: kind, depth: depth + 1, text)
                }
            }
            return .object(changed)
        case .array(let elements):
            return .array(elements.enumerated().map { index, element in
                visit(element, path: path + "[" + name(of: element, at: index) + "]", kind: kind, depth: depth + 1, text)
            })
        default:
            return tree
        }
    }

    /// The note of a text at `key` of the object at `path`, or nil when the value there is not a text. In a study
    /// file, `name` is a text at the top only (the study's name). In a Questionnaire, the title is the top's, an item's
    /// `text` is read by participants (a coding's `display` only in an answer option, as `valueString` is), and the
    /// codes that say what an item means (`code[…].display`) are not.
    private static func note(of key: String, in path: String, at depth: Int, kind: DocumentKind) -> String? {
        switch (kind, key) {
        case (.study, "name"): return depth == 0 ? "the study's name" : nil
        case (.questionnaire, "title"): return depth == 0 ? textKeys[kind]?[key] : nil
        case (.questionnaire, "text"): return path.hasSuffix("]") && path.contains("item[") ? textKeys[kind]?[key] : nil
        case (.questionnaire, "display"):
            // An answer option's coding, or a concept of a ValueSet the Questionnaire contains (its answers).
            let answer = path.hasSuffix(".valueCoding") && path.contains("answerOption[")
            return answer || (path.contains("contained[") && Self.isConcept(path)) ? textKeys[kind]?[key] : nil
        case (.valueSet, "display"): return Self.isConcept(path) ? textKeys[kind]?[key] : nil
        case (.questionnaire, "valueString"): return path.hasSuffix("]") && path.split(separator: ".").last?.hasPrefix("answerOption[") == true
            ? textKeys[kind]?[key] : nil
        default: return textKeys[kind]?[key]
        }
    }

    /// Whether `path` is a ValueSet's concept (`compose.include[…].concept[…]`) or expansion entry (`contains[…]`).
    private static func isConcept(_ path: String) -> Bool {
        guard let last = path.split(separator: ".").last else { return false }
        return last.hasPrefix("concept[") || last.hasPrefix("contains[")
    }

    /// How a list element is named in a key: by its `id`, `identifier`, `linkId` or a choice's `value` when it has a
    /// string (or number) there without `[`, `]` or `.`; else by its position.
    private static func name(of element: JSONTree, at index: Int) -> String {
        for key in elementNames {
            let value: String? = switch element[key] {
            case .string(let text)?: text
            case .number(let text)?: text
            default: nil
            }
            if let value, !value.isEmpty, !value.contains(where: { "[].".contains($0) }) { return value }
        }
        return String(index)
    }

    /// The FHIR `translation` extension's URL (on a primitive's `_text`, `_display`…: SDC forms carry their languages so).
    static let translationExtension = "http://hl7.org/fhir/StructureDefinition/translation"

    /// The translations a FHIR Questionnaire carries into `language` in `translation` extensions, by text key: an
    /// extension whose `lang` is the language, or its primary subtag (`zh` for `zh-Hans`), or the other way round.
    public static func embeddedTranslations(in tree: JSONTree, language: String) -> [String: String] {
        var found: [String: String] = [:]
        collectEmbedded(tree, path: "", depth: 0, language: language.lowercased(), into: &found)
        return found
    }

    private static func collectEmbedded(_ tree: JSONTree, path: String, depth: Int, language: String, into found: inout [String: String]) {
        switch tree {
        case .object(let members):
            // A ValueSet concept carries its other languages as designations with a language.
            if isConcept(path), case .array(let designations)? = tree["designation"] {
                for designation in designations {
                    guard case .string(let code)? = designation["language"], case .string(let value)? = designation["value"],
                          matches(code.lowercased(), language) else { continue }
                    found[path + ".display"] = value
                    break
                }
            }
            for member in members {
                let key = path.isEmpty ? member.key : path + "." + member.key
                if member.key.hasPrefix("_"), note(of: String(member.key.dropFirst()), in: path, at: depth, kind: .questionnaire) != nil,
                   let text = translation(in: member.value, language: language) {
                    found[path.isEmpty ? String(member.key.dropFirst()) : path + "." + member.key.dropFirst()] = text
                } else {
                    collectEmbedded(member.value, path: key, depth: depth + 1, language: language, into: &found)
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collectEmbedded(element, path: path + "[" + name(of: element, at: index) + "]", depth: depth + 1, language: language, into: &found)
            }
        default:
            break
        }
    }

    /// The `content` of the `translation` extension into `language` on a primitive's element, if it has one.
    private static func translation(in element: JSONTree, language: String) -> String? {
        guard case .array(let extensions)? = element["extension"] else { return nil }
        for entry in extensions where entry["url"] == .string(translationExtension) {
            guard case .array(let parts)? = entry["extension"] else { continue }
            var lang: String?, content: String?
            for part in parts {
                if part["url"] == .string("lang"), case .string(let code)? = part["valueCode"] { lang = code.lowercased() }
                if part["url"] == .string("content"), case .string(let text)? = part["valueString"] { content = text }
            }
            guard let lang, let content else { continue }
            if matches(lang, language) { return content }
        }
        return nil
    }

    /// Whether a FHIR language code (lowercased) is `language`, its primary subtag (`zh` for `zh-hans`), or the other
    /// way round.
    private static func matches(_ code: String, _ language: String) -> Bool {
        let primary = language.split(separator: "-").first.map(String.init) ?? language
        let theirs = code.split(separator: "-").first.map(String.init) ?? code
        return code == language || code == primary || theirs == language
    }
}
