import Foundation
import JSONDiagnostics

/// A study folder's translations: `translations/LANG.yaml` for each of the study's languages but the first, each a
/// mapping of the study's files to mappings of their text keys (``StudyTextCatalog``) to the language's texts.
///
/// ```yaml
/// # translations/ja.yaml
/// study.yaml:
///   name: リカバー
///   tasks[pain].title: 毎日の痛みチェック
/// surveys/pain.json:
///   steps[painLevel].title: 痛み
/// ```
///
/// The study's files keep its first language, so a study in one language needs none of this.
public struct StudyTranslations: Hashable, Sendable {
    /// The folder, in the study folder, that holds the translations.
    public static let folderName = "translations"

    /// The texts of each language: by language, then file, then key.
    public var texts: [String: [String: [String: String]]]

    /// No translations.
    public init(texts: [String: [String: [String: String]]] = [:]) {
        self.texts = texts
    }

    /// The file of `language`'s translations, relative to the study folder.
    public static func file(of language: String) -> String { "\(folderName)/\(language).yaml" }

    /// Reads every `translations/*.yaml` of `folder`, with a problem for each file that is not a mapping of files to
    /// mappings of keys to texts. A missing folder is no translations.
    static func read(folder: URL) -> (StudyTranslations, [StudyProblem]) {
        let directory = folder.appendingPathComponent(folderName, isDirectory: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return (StudyTranslations(), []) }
        var translations = StudyTranslations()
        var problems: [StudyProblem] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let file = "\(folderName)/\(name)"
            guard name.hasSuffix(".yaml") else {
                problems.append(StudyProblem(file: file, path: "", message: "translations are LANGUAGE.yaml files, such as ja.yaml"))
                continue
            }
            let url = directory.appendingPathComponent(name)
            if let size = StudyLoader.oversizedFileSize(url) {
                problems.append(StudyProblem(file: file, path: "", message: StudyLoader.oversizedFileMessage(size)))
                continue
            }
            guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
                problems.append(StudyProblem(file: file, path: "", message: "cannot read the file as UTF-8 text"))
                continue
            }
            let tree: JSONTree
            do { tree = try StudyDocumentParser.parseYAML(text) } catch {
                problems.append(StudyProblem(file: file, path: "", message: error.message))
                continue
            }
            let language = String(name.dropLast(".yaml".count))
            guard case .object(let files) = tree else {
                if !tree.isNull { problems.append(StudyProblem(file: file, path: "", message: "expected a mapping of the study's files to their texts")) }
                continue
            }
            var byFile: [String: [String: String]] = [:]
            for entry in files {
                guard case .object(let keys) = entry.value else {
                    problems.append(StudyProblem(file: file, path: entry.key, message: "expected a mapping of text keys to texts, found \(entry.value.kindDescription)"))
                    continue
                }
                for pair in keys {
                    guard case .string(let translated) = pair.value else {
                        problems.append(StudyProblem(file: file, path: entry.key + "#" + pair.key, message: "expected a text, found \(pair.value.kindDescription)"))
                        continue
                    }
                    byFile[entry.key, default: [:]][pair.key] = translated
                }
            }
            translations.texts[language] = byFile
        }
        return (translations, problems)
    }

    /// The placeholders of `text` that a translation must keep: `%@`, `%d`, `%1$@`, `%%` and `{name}`, in order.
    public static func placeholders(in text: String) -> [String] {
        let pattern = #"%(?:\d+\$)?[@dDiufFeEgGsScCxXo]|%%|\{[A-Za-z_][A-Za-z0-9_]*\}"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range, in: text).map { String(text[$0]) }
        }
    }

    /// Checks the translations against the study's texts: a language the study does not declare (or its first), a file
    /// or key with no such text, a translation whose placeholders differ from the source's, and each text of each
    /// declared language without a translation (a problem, or a note for a language in `fallback`). `embedded` are the
    /// translations FHIR Questionnaires carry, by language, then file, then key: they count as translated.
    static func check(_ translations: StudyTranslations, texts: [StudyText], languages: [String], fallback: Set<String>,
                      embedded: [String: [String: [String: String]]]) -> (problems: [StudyProblem], notes: [StudyProblem]) {
        var problems: [StudyProblem] = [], notes: [StudyProblem] = []
        var sources: [String: [String: StudyText]] = [:]
        for text in texts { sources[text.file, default: [:]][text.key] = text }
        for (language, files) in translations.texts.sorted(by: { $0.key < $1.key }) {
            let file = Self.file(of: language)
            guard languages.dropFirst().contains(language) else {
                let message = languages.first == language
                    ? "'\(language)' is the study's first language, which its own files are written in"
                    : "'\(language)' is not one of the study's languages (\(languages.joined(separator: ", ")))"
                problems.append(StudyProblem(file: file, path: "", message: message))
                continue
            }
            for (source, keys) in files.sorted(by: { $0.key < $1.key }) {
                guard let known = sources[source] else {
                    problems.append(StudyProblem(file: file, path: source, message: "the study has no texts in '\(source)'"))
                    continue
                }
                for (key, translated) in keys.sorted(by: { $0.key < $1.key }) {
                    guard let text = known[key] else {
                        let hint = JSONDiagnostics.closestKey(to: key, among: Array(known.keys)).map { "; did you mean '\($0)'?" } ?? ""
                        problems.append(StudyProblem(file: file, path: source + "#" + key, message: "'\(source)' has no text at '\(key)'\(hint)"))
                        continue
                    }
                    let expected = placeholders(in: text.source).sorted(), found = placeholders(in: translated).sorted()
                    if expected != found {
                        problems.append(StudyProblem(file: file, path: source + "#" + key,
                                                     message: "the placeholders \(found) differ from the source's \(expected) ('\(text.source)')"))
                    }
                }
            }
        }
        for language in languages.dropFirst() {
            let missing = texts.filter { translations.texts[language]?[$0.file]?[$0.key] == nil && embedded[language]?[$0.file]?[$0.key] == nil }
            guard let first = missing.first else { continue }
            if fallback.contains(language) {
                // A language the study lets fall back: one note, not a line per text.
                notes.append(StudyProblem(file: Self.file(of: language), path: "",
                                          message: "\(missing.count) text\(missing.count == 1 ? " has" : "s have") no \(language) translation and "
                                              + "show\(missing.count == 1 ? "s" : "") in \(languages[0]) (the first: \(first.file) \(first.key))"))
            } else {
                problems += missing.map { text in
                    StudyProblem(file: text.file, path: text.key, message: "has no \(language) translation of '\(text.source)' (\(Self.file(of: language)))")
                }
            }
        }
        return (problems, notes)
    }
}
