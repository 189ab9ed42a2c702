import Foundation
import JSONDiagnostics
import Research

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
    public static func read(folder: URL) -> (StudyTranslations, [StudyProblem]) {
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

    /// What is wrong with `translated` as the translation of `source`, the translations file's checks and an
    /// import's alike: a character that cannot be shown as written (a control character, a bidirectional override or
    /// isolate that would turn the text around it, as ``FreeTextRules`` keeps them out of answers), and placeholders
    /// other than the source's.
    static func problems(translating source: String, as translated: String) -> [String] {
        var problems: [String] = []
        if let problem = unshowable(translated) { problems.append(problem) }
        let expected = placeholders(in: source).sorted(), found = placeholders(in: translated).sorted()
        if expected != found { problems.append("the placeholders \(found) differ from the source's \(expected)") }
        return problems
    }

    /// Why `text`, a study's text shown on a page, cannot be shown as written: it holds a control character or a
    /// bidirectional override or isolate (as ``FreeTextRules`` keeps them out of answers); nil when it can.
    static func unshowable(_ text: String) -> String? {
        FreeTextRules.forbiddenScalar(in: text, allowingLineBreaks: true).map { "holds \(FreeTextRules.describe($0)), which would not show as written" }
    }

    /// `text` as a JSON string, which YAML's double-quoted strings read too.
    static func quoted(_ text: String) -> String {
        (try? ResearchJSON.encoder(pretty: false).encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
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
                    problems += Self.problems(translating: text.source, as: translated).map {
                        StudyProblem(file: file, path: source + "#" + key, message: $0)
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

    /// `language`'s translations with those of a translators' file put in (a unit without a translation keeps what
    /// there was). Every unit must name a text the study has, with the source it has now and the same placeholders;
    /// otherwise nothing is taken and each fault is listed with its line and key.
    public func importing(_ units: [TranslatorFile.Unit], language: String, texts: [StudyText], languages: [String])
        throws(TranslatorImportFailure) -> [String: [String: String]] {
        guard languages.dropFirst().contains(language) else {
            throw TranslatorImportFailure(errors: [TranslatorFileError(line: nil, key: nil, message: languages.first == language
                ? "'\(language)' is the study's first language, which its own files are written in"
                : "'\(language)' is not one of the study's languages (\(languages.joined(separator: ", ")))")])
        }
        var sources: [String: [String: StudyText]] = [:]
        for text in texts { sources[text.file, default: [:]][text.key] = text }
        var merged = self.texts[language] ?? [:]
        var errors: [TranslatorFileError] = []
        for unit in units {
            let name = unit.file + "#" + unit.key
            guard let text = sources[unit.file]?[unit.key] else {
                errors.append(TranslatorFileError(line: unit.line, key: name, message: "the study has no such text"))
                continue
            }
            if let source = unit.source, source != text.source {
                errors.append(TranslatorFileError(line: unit.line, key: name,
                                                  message: "the source text has changed since the file was made: it now reads '\(text.source)'"))
                continue
            }
            guard let target = unit.target, !target.isEmpty else { continue }
            let problems = Self.problems(translating: text.source, as: target)
            guard problems.isEmpty else {
                errors += problems.map { TranslatorFileError(line: unit.line, key: name, message: $0) }
                continue
            }
            merged[unit.file, default: [:]][unit.key] = target
        }
        guard errors.isEmpty else { throw TranslatorImportFailure(errors: errors) }
        return merged
    }

    /// A translations file's YAML: the study's files in the order of `texts`, each text's key and translation in
    /// that order too, every string double-quoted (YAML reads JSON's escapes), so that the same texts make the same file.
    public static func yaml(_ translations: [String: [String: String]], texts: [StudyText], language: String) -> String {
        var out = "# The study's texts in \(language), by file and key (README, \"Translating a study\").\n"
        var files: [String] = []
        for text in texts where !files.contains(text.file) && translations[text.file]?.isEmpty == false { files.append(text.file) }
        for file in files {
            out += quoted(file) + ":\n"
            for text in texts where text.file == file {
                if let translated = translations[file]?[text.key] { out += "  " + quoted(text.key) + ": " + quoted(translated) + "\n" }
            }
        }
        return out
    }
}

/// Why a translators' file was not imported: every fault found, each with its line and key.
public struct TranslatorImportFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var errors: [TranslatorFileError]

    public init(errors: [TranslatorFileError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
