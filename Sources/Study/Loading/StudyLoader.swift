import ActiveTasks
import CareStore
import Consent
import Foundation
import JSONDiagnostics
import Research

/// Loads a study folder (`study.yaml` or `study.json` and the files it names) and checks all of it, reporting every
/// problem at once with its file, its path inside the file and what is wrong.
///
/// ```swift
/// do {
///     let study = try StudyLoader.load(folder: URL(fileURLWithPath: "examples/studies/recover"))
/// } catch {
///     for problem in error.problems { print(problem) }   // study.yaml: tasks[1].schedule[0].daily.at: '25:00' is not a time …
/// }
/// ```
///
/// The study file's keys are described in README.md, "Study folders".
public enum StudyLoader {
    /// The names a study file may have, in the order they are looked for.
    public static let studyFileNames = ["study.yaml", "study.yml", "study.json"]

    /// The largest file a study folder may hold for the loader (study file, tasks, surveys, FHIR Questionnaires,
    /// consent documents, strings): 8 MiB, checked before the file is read. A Questionnaire with its value sets
    /// inline is a few hundred kilobytes.
    public static let maximumFileBytes = 8 << 20

    /// The size of the file at `url` when it is larger than ``maximumFileBytes``; nil otherwise (or when unknown).
    static func oversizedFileSize(_ url: URL) -> Int? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > maximumFileBytes else {
            return nil
        }
        return size
    }

    /// The problem of a file of `size` bytes, over the limit.
    static func oversizedFileMessage(_ size: Int) -> String {
        "the file is \(size) bytes, more than the \(maximumFileBytes) bytes (8 MiB) a study file may have; it was not read"
    }

    /// Loads and validates the study in `folder`; throws ``StudyValidationFailure`` listing every problem found.
    /// Survey files in another standard are read by the first of `surveyFormats` that recognizes them (StudyFHIR's
    /// `FHIRSurveyFormat` for FHIR Questionnaires); a Questionnaire no format reads is a problem naming the file.
    public static func load(folder: URL, surveyFormats: [any StudySurveyFormat] = []) throws(StudyValidationFailure) -> StudyDefinition {
        let folder = folder.standardizedFileURL
        var loader = Loader(folder: folder, surveyFormats: surveyFormats)
        guard var study = loader.load(), loader.problems.isEmpty else { throw failure(loader.problems) }
        try translate(&study, folder: folder, surveyFormats: surveyFormats, documents: loader.documents, texts: loader.texts,
                      fallback: loader.fallbackLanguages)
        return study
    }

    /// Every text participants read in the study in `folder`, in its first language, with its file, key and a note:
    /// what a translator translates. The study's files must be valid; its translations are neither needed nor checked.
    public static func texts(folder: URL, surveyFormats: [any StudySurveyFormat] = []) throws(StudyValidationFailure)
        -> (study: StudyDefinition, texts: [StudyText]) {
        var loader = Loader(folder: folder.standardizedFileURL, surveyFormats: surveyFormats)
        guard let study = loader.load(), loader.problems.isEmpty else { throw failure(loader.problems) }
        return (study, loader.texts)
    }

    private static func failure(_ problems: [StudyProblem]) -> StudyValidationFailure {
        var seen = Set<StudyProblem>()
        return StudyValidationFailure(problems: problems.filter { seen.insert($0).inserted })
    }

    /// Checks the study's translations against the texts of its `documents` and gives `study` its other languages:
    /// for each with any translation, the study loaded again with its texts put in, whose onboarding and surveys the
    /// study then offers in that language (see ``StudyDefinition/localized(_:)``).
    private static func translate(_ study: inout StudyDefinition, folder: URL, surveyFormats: [any StudySurveyFormat],
                                  documents: [Loader.Document], texts: [StudyText], fallback: [String]) throws(StudyValidationFailure) {
        let others = Array(study.languages.dropFirst())
        var embedded: [String: [String: [String: String]]] = [:]
        for document in documents where document.kind == .questionnaire || document.kind == .valueSet {
            for language in others {
                let found = StudyTextCatalog.embeddedTranslations(in: document.tree, language: language)
                if !found.isEmpty { embedded[language, default: [:]][document.file] = found }
            }
        }
        let (translations, readProblems) = StudyTranslations.read(folder: folder)
        var (problems, notes) = StudyTranslations.check(translations, texts: texts, languages: study.languages, fallback: Set(fallback),
                                                        embedded: embedded)
        // The consent document is the study's too: a language without its own (consent.translations) shows the first
        // language's, which only a language that may fall back allows.
        let withoutConsent = others.filter { study.consentDocuments[$0]?.language != $0 }
        for language in withoutConsent {
            let problem = StudyProblem(file: "study.yaml", path: "consent.translations",
                                       message: "has no \(language) consent document, so \(language) readers get the \(study.defaultLanguage) one")
            if fallback.contains(language) { notes.append(problem) } else { problems.append(problem) }
        }
        guard readProblems.isEmpty, problems.isEmpty else { throw failure(readProblems + problems) }
        study.notes += notes
        study.untranslatedLanguages = Set(others.filter { language in
            withoutConsent.contains(language)
                || texts.contains { translations.texts[language]?[$0.file]?[$0.key] == nil && embedded[language]?[$0.file]?[$0.key] == nil }
        })
        for language in others where translations.texts[language]?.isEmpty == false || embedded[language] != nil {
            var loader = Loader(folder: folder, surveyFormats: surveyFormats)
            loader.translation = (language, translations.texts[language] ?? [:])
            guard let localized = loader.load(), loader.problems.isEmpty else {
                // The files loaded without these texts: what goes wrong comes from the translations.
                throw failure(loader.problems.map { StudyProblem(file: $0.file, path: $0.path, message: "in \(language): " + $0.message) })
            }
            study.translations[language] = localized
            study.onboardingTasks[language] = localized.onboardingTasks[language]
            study.localizedOnboardingData[language] = localized.onboardingTaskData
            for (task, survey) in localized.surveys where study.localizedSurveys[task]?[language] == nil {
                study.localizedSurveys[task, default: [:]][language] = survey
            }
        }
    }
}

/// The state of one load: the folder, the problems so far, and the files already read.
private struct Loader {
    let folder: URL
    var problems: [StudyProblem] = []
    /// What surveys in other standards left aside without changing them (``StudySurveyFormat``'s notes).
    var notes: [StudyProblem] = []
    /// Surveys already loaded, by file as written, so that two tasks sharing one survey report its faults once.
    var surveyCache: [String: ResearchTask?] = [:]
    /// The FHIR Questionnaires imported as surveys, by the survey's task identifier.
    var questionnaires: [String: Data] = [:]
    /// Which file each imported Questionnaire came from, by the survey's task identifier.
    var questionnaireFiles: [String: String] = [:]
    /// The file of each survey with a `url`, by its canonical reference (`url|version`).
    var surveyCanonicals: [String: String] = [:]
    /// The study's FHIR ValueSets (JSON) by canonical URL, for Questionnaires' `answerValueSet`.
    var valueSets: [String: Data] = [:]

    /// The survey formats besides StudyKit's task JSON.
    let surveyFormats: [any StudySurveyFormat]

    /// A document whose texts participants read, as it is in the study folder.
    typealias Document = (file: String, tree: JSONTree, kind: StudyTextCatalog.DocumentKind)
    /// The documents read so far, untranslated: the study file, the onboarding, the surveys.
    var documents: [Document] = []
    /// Every text of the documents read so far, in document order.
    var texts: [StudyText] { documents.flatMap { StudyTextCatalog.texts(in: $0.tree, file: $0.file, kind: $0.kind) } }
    /// The language this load puts in, with its texts by file and key; nil for the study's own (first) language.
    var translation: (language: String, texts: [String: [String: String]])?
    /// The languages whose missing translations are notes rather than problems (`translation.fallback`).
    var fallbackLanguages: [String] = []

    init(folder: URL, surveyFormats: [any StudySurveyFormat]) {
        self.folder = folder
        self.surveyFormats = surveyFormats
    }

    static let topKeys = ["identifier", "name", "languages", "theme", "consent", "onboarding", "strings", "enrolment", "withdrawal", "translation",
                          "valueSets", "tasks", "contacts", "charts", "feed", "patient", "reminders", "quietHours"]
    static let taskKeys = ["id", "title", "instructions", "impactsAdherence", "survey", "active", "outcome", "code", "card", "lateEntry", "value",
                           "schedule"]
    static let codingKeys = ["system", "code", "display"]
    static let elementKeys = ["daily", "weekly", "once", "sameAs", "duration", "text", "targetValues"]
    static let contactKeys = ["id", "givenName", "familyName", "title", "role", "organization", "category", "phones", "emails",
                              "messaging", "address"]
    static let identifierPattern = DocumentReader.identifierPattern

    mutating func load() -> StudyDefinition? {
        guard let (fileName, source) = readStudyFile() else { return nil }
        documents.append((fileName, source, .study))
        let root = translation.map { StudyTextCatalog.translating(source, kind: .study, with: $0.texts[fileName] ?? [:]) } ?? source
        var reader = DocumentReader(file: fileName)
        defer { problems += reader.problems }
        guard let top = reader.object(root, path: "", known: Self.topKeys,
                                      required: ["identifier", "name", "languages", "consent", "onboarding", "tasks"]) else {
            if case .object = root {} else { reader.report("", "a study file is a mapping of \(Self.topKeys.joined(separator: ", "))") }
            return nil
        }
        func value(_ key: String) -> JSONTree? { top.first { $0.key == key }?.value }

        let identifier = reader.string(value("identifier"), path: "identifier")
        if let identifier, identifier.range(of: Self.identifierPattern, options: .regularExpression) == nil {
            reader.report("identifier", "'\(identifier)' may hold only letters, digits, '-' and '_', starting with a letter or digit")
        }
        let name = reader.string(value("name"), path: "name")
        let languages = readLanguages(value("languages"), reader: &reader)
        var theme = readTheme(value("theme"), reader: &reader)
        var enrolment = EnrolmentMode.invitation
        if let pairs = reader.object(value("enrolment"), path: "enrolment", known: ["mode"], required: ["mode"]),
           let mode = reader.choice(pairs.first { $0.key == "mode" }?.value, path: "enrolment.mode", allowed: EnrolmentMode.allCases.map(\.rawValue)) {
            enrolment = EnrolmentMode(rawValue: mode) ?? .invitation
        }
        if let pairs = reader.object(value("translation"), path: "translation", known: ["fallback"]),
           let list = reader.array(pairs.first { $0.key == "fallback" }?.value, path: "translation.fallback") {
            for (index, element) in list.enumerated() {
                guard let language = reader.string(element, path: "translation.fallback[\(index)]") else { continue }
                if let languages, !languages.dropFirst().contains(language) {
                    reader.report("translation.fallback[\(index)]", "'\(language)' is not one of the study's languages after the first")
                }
                fallbackLanguages.append(language)
            }
        }
        var withdrawal = StudyWithdrawalPolicy.keep
        if let pairs = reader.object(value("withdrawal"), path: "withdrawal", known: ["data"], required: ["data"]),
           let data = reader.choice(pairs.first { $0.key == "data" }?.value, path: "withdrawal.data",
                                    allowed: StudyWithdrawalPolicy.allCases.map(\.rawValue)) {
            withdrawal = StudyWithdrawalPolicy(rawValue: data) ?? .keep
        }
        var strings = StudyStrings()
        if let path = reader.string(value("strings"), path: "strings"), let data = readFile(path, reference: "strings", reader: &reader) {
            strings = readStrings(data, file: path, languages: languages ?? [])
        }
        let documents = readConsent(value("consent"), languages: languages ?? [], reader: &reader)

        var onboarding: (data: Data, tasks: [String: ConsentTask])?
        var onboardingFile: (name: String, data: Data)?
        if let path = reader.string(value("onboarding"), path: "onboarding"),
           let read = readFile(path, reference: "onboarding", reader: &reader), let documents, let languages {
            let data = translatable(read, file: path, kind: .task)
            onboardingFile = (path, data)
            onboarding = loadOnboarding(data, file: path, documents: documents, languages: languages, strings: strings)
        }

        readValueSets(value("valueSets"), reader: &reader)
        var tasks: [StudyTaskDefinition] = []
        var surveys: [String: ResearchTask] = [:]
        var localizedSurveys: [String: [String: ResearchTask]] = [:]
        if let list = reader.array(value("tasks"), path: "tasks") {
            if list.isEmpty { reader.report("tasks", "a study needs at least one task") }
            (tasks, surveys, localizedSurveys) = readTasks(list, languages: languages ?? [], reader: &reader)
        }
        let contacts = readContacts(value("contacts"), reader: &reader)
        let charts = StudyChartReader.read(value("charts"), tasks: tasks, reader: &reader)
        let reminders = StudyReminderReader.read(value("reminders"), tasks: tasks, reader: &reader)
        let quietHours = StudyReminderReader.readQuietHours(value("quietHours"), reader: &reader)
        if let onboardingFile, value("reminders") == nil || value("reminders") == .array([]) {
            // An address asked for with nothing to send to it: the participant would give it for nothing.
            for path in Self.reminderEmailPaths(in: onboardingFile.data) {
                problems.append(StudyProblem(file: onboardingFile.name, path: path,
                                             message: "asks for the reminder email address, but the study sends no reminders (study.yaml has no 'reminders')"))
            }
        }
        let files = self // readFile reads only the folder; a copy keeps the closure off this mutating loader
        // A featured card's article is one text: its translation is the whole Markdown in that language.
        let articles = translation?.texts
        var feedReader = StudyFeedReader(folder: folder) { path, reference, reader in
            let read = files.readFile(path, reference: reference, reader: &reader)
            guard read != nil, let translated = articles?[path]?[StudyTextCatalog.articleKey] else { return read }
            return Data(translated.utf8)
        }
        let feed = feedReader.read(value("feed"), reader: &reader)
        for card in (value("feed").flatMap { tree -> [JSONTree]? in if case .array(let cards) = tree { cards } else { nil } } ?? []) {
            guard case .string(let path)? = card["article"], StudyLoader.oversizedFileSize(folder.appendingPathComponent(path)) == nil,
                  let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path),
                  let markdown = String(data: data, encoding: .utf8) else { continue }
            self.documents.append((path, .object([JSONTree.Member(key: StudyTextCatalog.articleKey, value: .string(markdown))]), .article))
        }
        if let logo = themeLogo(value("theme")) { theme.logo = feedReader.readImage(logo, path: "theme.logo", reader: &reader) }

        let patientFields = readPatientFields(value("patient"), onboarding: onboarding?.tasks ?? [:], reader: &reader)

        guard let identifier, let name, let languages, let documents, let onboarding else { return nil }
        return StudyDefinition(identifier: identifier, name: name, languages: languages, theme: theme, enrolment: enrolment, withdrawal: withdrawal,
                               consentDocuments: documents, onboardingTasks: onboarding.tasks, onboardingTaskData: onboarding.data,
                               tasks: tasks, surveys: surveys, localizedSurveys: localizedSurveys, questionnaires: questionnaires, valueSets: valueSets, contacts: contacts, charts: charts,
                               feed: feed, images: feedReader.images, strings: strings,
                               folder: folder, patientFields: patientFields, notes: notes,
                               reminders: reminders, quietHours: quietHours)
    }

    /// Reads `patient`: references into the onboarding task, checked in every language's version of it (a date question
    /// for `birthDate`, a choice whose values are FHIR's gender codes for `gender`).
    func readPatientFields(_ value: JSONTree?, onboarding: [String: ConsentTask], reader: inout DocumentReader) -> StudyPatientFields {
        guard let value, let pairs = reader.object(value, path: "patient", known: ["birthDate", "gender"]) else { return StudyPatientFields() }
        var fields = StudyPatientFields()
        for pair in pairs {
            let key = pair.key, tree = pair.value
            let path = "patient.\(key)"
            guard let text = reader.string(tree, path: path) else { continue }
            let reference: AnswerReference
            do {
                reference = try AnswerReference(parsing: text)
            } catch {
                reader.report(path, "'\(text)' is not a reference to an onboarding answer (step or step.item): \(error)")
                continue
            }
            guard reference.task == nil else {
                reader.report(path, "'\(text)' names another task; the patient's details come from the onboarding's own answers")
                continue
            }
            var fits = true
            for (language, consentTask) in onboarding.sorted(by: { $0.key < $1.key }) {
                let question = consentTask.task.step(withIdentifier: reference.step)?.questions
                    .first { reference.item == nil ? $0.identifier == reference.step : $0.identifier == reference.item }
                guard let format = question?.format else {
                    reader.report(path, "the onboarding (\(language)) has no question '\(text)'")
                    fits = false
                    break
                }
                if key == "birthDate" {
                    guard case .date = format else {
                        reader.report(path, "'\(text)' in the onboarding (\(language)) is not a date question (a day, without time)")
                        fits = false
                        break
                    }
                } else {
                    let values = Set(format.choiceValues.compactMap { value -> String? in if case .string(let code) = value { code } else { nil } })
                    guard !values.isEmpty, values.count == format.choiceValues.count, values.isSubset(of: StudyPatientFields.genderCodes) else {
                        reader.report(path, "'\(text)' in the onboarding (\(language)) is not a choice whose values are \(StudyPatientFields.genderCodes.sorted().joined(separator: ", "))")
                        fits = false
                        break
                    }
                }
            }
            guard fits else { continue }
            if key == "birthDate" { fields.birthDate = reference } else { fields.gender = reference }
        }
        return fields
    }

    // MARK: - Files

    /// The study file's name and its document; nil (reported) when there is none, two, or it cannot be read.
    mutating func readStudyFile() -> (String, JSONTree)? {
        let present = StudyLoader.studyFileNames.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        guard let fileName = present.first else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory)
            problems.append(StudyProblem(file: "study.yaml", path: "", message: !exists ? "the study folder \(folder.path) does not exist"
                : isDirectory.boolValue ? "the study folder \(folder.path) has no study.yaml or study.json"
                : "\(folder.path) is a file; give the study's folder"))
            return nil
        }
        if present.count > 1 {
            problems.append(StudyProblem(file: present[1], path: "", message: "the folder has both \(present.joined(separator: " and ")); keep one"))
            return nil
        }
        let url = folder.appendingPathComponent(fileName)
        if let size = StudyLoader.oversizedFileSize(url) {
            problems.append(StudyProblem(file: fileName, path: "", message: StudyLoader.oversizedFileMessage(size)))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            problems.append(StudyProblem(file: fileName, path: "", message: "cannot read the file"))
            return nil
        }
        do {
            return (fileName, try document(from: data, file: fileName))
        } catch {
            problems.append(StudyProblem(file: fileName, path: "", message: error.message))
            return nil
        }
    }

    /// A YAML or JSON file's document, by its extension (`.json` is JSON; anything else is read as YAML).
    func document(from data: Data, file: String) throws(DocumentSyntaxError) -> JSONTree {
        if file.lowercased().hasSuffix(".json") { return try StudyDocumentParser.parseJSON(data) }
        guard let text = String(data: data, encoding: .utf8) else { throw DocumentSyntaxError(message: "the file is not UTF-8 text") }
        return try StudyDocumentParser.parseYAML(text)
    }

    /// The bytes of the file at `path` (relative to the study folder); nil, reported at `reference` in the study
    /// file, when it does not exist or cannot be read.
    func readFile(_ path: String, reference: String, reader: inout DocumentReader) -> Data? {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            reader.report(reference, "no file at '\(path)' (looked for \(url.path))")
            return nil
        }
        if !isDirectory.boolValue, let size = StudyLoader.oversizedFileSize(url) {
            reader.report(reference, "'\(path)': \(StudyLoader.oversizedFileMessage(size))")
            return nil
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: url.path) else {
            reader.report(reference, "'\(path)' is not a readable file")
            return nil
        }
        return data
    }

    // MARK: - Languages, theme, strings

    func readLanguages(_ value: JSONTree?, reader: inout DocumentReader) -> [String]? {
        guard let list = reader.array(value, path: "languages") else { return nil }
        guard !list.isEmpty else {
            reader.report("languages", "a study needs at least one language; the first is the default")
            return nil
        }
        // The languages that are fine are kept, so that the files of each are still checked; a bad one is reported.
        var languages: [String] = []
        for (index, element) in list.enumerated() {
            let path = "languages[\(index)]"
            guard let tag = reader.string(element, path: path) else { continue }
            let normalized = ConsentStrings.normalize(tag)
            if !ConsentStrings.builtInLanguages.contains(normalized) {
                let hint = JSONDiagnostics.closestKey(to: tag, among: ConsentStrings.builtInLanguages).map { "; did you mean '\($0)'?" } ?? ""
                reader.report(path, "'\(tag)' has no built-in string table (StudyKit has \(ConsentStrings.builtInLanguages.joined(separator: ", ")))\(hint)")
            } else if languages.contains(normalized) {
                reader.report(path, "'\(tag)' is listed twice")
            } else {
                languages.append(normalized)
            }
        }
        return languages.isEmpty ? nil : languages
    }

    func readTheme(_ value: JSONTree?, reader: inout DocumentReader) -> StudyTheme {
        guard let pairs = reader.object(value, path: "theme", known: ["tint", "logo"]) else { return StudyTheme() }
        guard pairs.contains(where: { $0.key == "tint" }) else { return StudyTheme() }
        guard let tint = reader.string(pairs.first { $0.key == "tint" }?.value, path: "theme.tint") else { return StudyTheme() }
        guard StudyTheme.isHexColour(tint) else {
            reader.report("theme.tint", "'\(tint)' is not a colour written as #RRGGBB, such as \"#0A66C2\"")
            return StudyTheme()
        }
        return StudyTheme(tint: tint.uppercased())
    }

    /// The theme's `logo` member, read with the images (``StudyFeedReader/readImage(_:path:reader:)``).
    func themeLogo(_ value: JSONTree?) -> JSONTree? {
        guard case .object(let members)? = value else { return nil }
        return members.first { $0.key == "logo" }?.value
    }

    /// Reads the strings file: `consent` (checked by ``ConsentStrings/load(_:)``) and `web` (language → key → text,
    /// passed through).
    mutating func readStrings(_ data: Data, file: String, languages: [String]) -> StudyStrings {
        var reader = DocumentReader(file: file)
        defer { problems += reader.problems }
        let root: JSONTree
        do {
            root = try document(from: data, file: file)
        } catch {
            reader.report("", error.message)
            return StudyStrings()
        }
        guard let pairs = reader.object(root, path: "", known: ["consent", "web"]) else { return StudyStrings() }
        var strings = StudyStrings()
        if let consent = pairs.first(where: { $0.key == "consent" })?.value {
            if case .object(let tables) = consent {
                do {
                    strings.consent = try ConsentStrings.load(try JSONEncoder().encode(consent))
                } catch let failure as ConsentValidationFailure {
                    for problem in failure.problems { reader.report(DocumentReader.join("consent", problem.path), problem.message) }
                } catch EncodingError.invalidValue(let value, let context) {
                    // Only a number too large for a Double cannot be written (YAML reads `1e400` as a number).
                    let path = context.codingPath.map(\.stringValue).reduce("consent", DocumentReader.join)
                    reader.report(path, "\(value) is not a number this reader can hold")
                } catch {
                    reader.report("consent", "\(error)")
                }
                for table in tables where !languages.contains(ConsentStrings.normalize(table.key)) {
                    reader.report("consent.\(table.key)", "'\(table.key)' is not one of the study's languages (\(languages.joined(separator: ", ")))")
                }
            } else {
                reader.report("consent", "expected a mapping of languages to consent strings, found \(DocumentReader.kind(of: consent))")
            }
        }
        if let webPairs = reader.object(pairs.first(where: { $0.key == "web" })?.value, path: "web", known: languages) {
            for member in webPairs {
                let (language, table) = (member.key, member.value)
                guard case .object(let entries) = table else {
                    reader.report("web.\(language)", "expected a mapping of string keys to text, found \(DocumentReader.kind(of: table))")
                    continue
                }
                for entry in entries {
                    let (key, text) = (entry.key, entry.value)
                    let path = "web.\(language).\(key)"
                    guard let text = reader.string(text, path: path) else { continue }
                    if let problem = StudyTranslations.unshowable(text) {
                        reader.report(path, problem)
                        continue
                    }
                    if let answerKey = AnswerValidationMessages.answerKey(ofWebKey: key) {
                        // A reworded refusal may leave out what its message names, but not name what it does not have.
                        guard let source = AnswerValidationMessages.tables["en"]?[answerKey] else {
                            let hint = JSONDiagnostics.closestKey(to: answerKey, among: AnswerValidationMessages.keys).map { "; did you mean '\(AnswerValidationMessages.webKeyPrefix)\($0)'?" } ?? ""
                            reader.report(path, "is no answer message\(hint)")
                            continue
                        }
                        let named = StudyTranslations.placeholders(in: source)
                        let unknown = Set(StudyTranslations.placeholders(in: text)).subtracting(named)
                        if !unknown.isEmpty {
                            let has = named.isEmpty ? "it names no values" : "it has " + named.joined(separator: ", ")
                            reader.report(path, "names \(unknown.sorted().joined(separator: ", ")), which the message does not have (\(has))")
                            continue
                        }
                    }
                    strings.web[ConsentStrings.normalize(language), default: [:]][key] = text
                }
            }
        }
        return strings
    }

    // MARK: - Consent and onboarding

    /// The consent document for each study language; nil (reported) when the main document is missing or invalid.
    mutating func readConsent(_ value: JSONTree?, languages: [String], reader: inout DocumentReader) -> [String: ConsentDocument]? {
        guard let pairs = reader.object(value, path: "consent", known: ["document", "translations"], required: ["document"]) else { return nil }
        var main: ConsentDocument?
        if let path = reader.string(pairs.first { $0.key == "document" }?.value, path: "consent.document"),
           let data = readFile(path, reference: "consent.document", reader: &reader) {
            main = loadConsentDocument(data, file: path)
        }
        var documents: [String: ConsentDocument] = [:]
        if let translations = reader.object(pairs.first { $0.key == "translations" }?.value, path: "consent.translations", known: languages) {
            for member in translations {
                let (language, pathValue) = (member.key, member.value)
                let reference = "consent.translations.\(language)"
                guard languages.contains(language), let path = reader.string(pathValue, path: reference) else { continue }
                guard let data = readFile(path, reference: reference, reader: &reader), let document = loadConsentDocument(data, file: path) else {
                    continue
                }
                if ConsentStrings.normalize(document.language) != language {
                    problems.append(StudyProblem(file: path, path: "language",
                        message: "the document is in '\(document.language)', but the study lists it as the '\(language)' translation"))
                }
                documents[language] = document
            }
        }
        // With a faulty translation (already reported), its language falls back to the main document, so that the
        // onboarding task is still checked in every language.
        guard let main else { return nil }
        for language in languages where documents[language] == nil { documents[language] = main }
        return documents
    }

    mutating func loadConsentDocument(_ data: Data, file: String) -> ConsentDocument? {
        do {
            return try ConsentDocumentValidator.load(data)
        } catch {
            problems += error.problems.map { StudyProblem(file: file, path: $0.path, message: $0.message) }
            return nil
        }
    }

    /// The onboarding task in every study language. A fault found with only some languages' documents says which.
    mutating func loadOnboarding(_ data: Data, file: String, documents: [String: ConsentDocument], languages: [String],
                                 strings: StudyStrings) -> (data: Data, tasks: [String: ConsentTask])? {
        var tasks: [String: ConsentTask] = [:]
        var faults: [(language: String, problem: TaskDefinitionError)] = []
        for language in languages {
            guard let document = documents[language] else { continue }
            let context = ConsentContext(strings: strings.consent, language: language, locale: Locale(identifier: language),
                                         timeZone: .gmt, calendar: Calendar(identifier: .gregorian))
            do {
                tasks[language] = try ConsentTaskLoader.load(taskData: data, document: document, context: context)
            } catch {
                faults += error.problems.map { (language, $0) }
            }
        }
        var reported = Set<TaskDefinitionError>()
        for fault in faults where reported.insert(fault.problem).inserted {
            let affected = faults.filter { $0.problem == fault.problem }.map(\.language)
            let suffix = affected.count == languages.count ? ""
                : " (with the \(affected.joined(separator: ", ")) consent document\(affected.count == 1 ? "" : "s"))"
            problems.append(StudyProblem(file: file, path: fault.problem.path, message: fault.problem.message + suffix))
        }
        return faults.isEmpty ? (data, tasks) : nil
    }

    /// The JSON paths of the reminder email permissions (`"kind": "email"` in a `requestPermissions` step) of a task
    /// file as written: `steps[3].permissions[2].kind`.
    static func reminderEmailPaths(in data: Data) -> [String] {
        guard let tree = try? JSONTree(data: data), case .array(let steps)? = tree["steps"] else { return [] }
        var paths: [String] = []
        for (stepIndex, step) in steps.enumerated() {
            guard case .string("requestPermissions")? = step["type"], case .array(let permissions)? = step["permissions"] else { continue }
            for (index, permission) in permissions.enumerated() {
                if case .string(PermissionKind.email.rawValue)? = permission["kind"] {
                    paths.append("steps[\(stepIndex)].permissions[\(index)].kind")
                }
            }
        }
        return paths
    }

    // MARK: - Tasks

    mutating func readTasks(_ list: [JSONTree], languages: [String],
                            reader: inout DocumentReader) -> ([StudyTaskDefinition], [String: ResearchTask], [String: [String: ResearchTask]]) {
        var localized: [String: [String: ResearchTask]] = [:]
        // Ids first, so that a schedule's `sameAs` can name any task, before or after it.
        var ids: [String: Int] = [:]
        for (index, element) in list.enumerated() {
            guard case .string(let id)? = element["id"] else { continue }
            if id == StudyTaskDefinition.onboardingID {
                reader.report("tasks[\(index)].id", "'onboarding' is the study's onboarding task; give this task another id")
            } else if let earlier = ids[id] {
                reader.report("tasks[\(index)].id", "duplicate task id '\(id)' (also tasks[\(earlier)])")
            } else {
                ids[id] = index
            }
        }
        var tasks: [StudyTaskDefinition] = []
        var surveys: [String: ResearchTask] = [:]
        var sameAs: [(task: Int, element: Int, target: String, path: String)] = []
        for (index, element) in list.enumerated() {
            let path = "tasks[\(index)]"
            guard let pairs = reader.object(element, path: path, known: Self.taskKeys, required: ["id", "title", "schedule"]) else { continue }
            func value(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
            let id = reader.string(value("id"), path: "\(path).id")
            if let id, id.range(of: Self.identifierPattern, options: .regularExpression) == nil {
                reader.report("\(path).id", "'\(id)' may hold only letters, digits, '-' and '_', starting with a letter or digit")
            }
            let title = reader.string(value("title"), path: "\(path).title")
            let instructions = reader.string(value("instructions"), path: "\(path).instructions")
            let impactsAdherence = reader.bool(value("impactsAdherence"), path: "\(path).impactsAdherence") ?? true
            var survey: ResearchTask?
            let surveyFile = reader.string(value("survey"), path: "\(path).survey")
            if let surveyFile { survey = loadSurvey(surveyFile, reference: "\(path).survey", reader: &reader) }
            var activeTask: String?
            if let active = value("active") {
                if surveyFile != nil {
                    reader.report("\(path).active", "a task opens either a survey or an active task; this one names both")
                } else if let id, let (name, task) = readActiveTask(active, path: "\(path).active", taskID: id, language: languages.first ?? "en",
                                                                     reader: &reader) {
                    activeTask = name
                    survey = task
                    // The same task worded in the study's other languages (its settings were checked just now).
                    for language in languages.dropFirst() {
                        localized[id, default: [:]][language] = readActiveTask(active, path: "\(path).active", taskID: id, language: language,
                                                                              reader: &reader)?.1
                    }
                }
            }
            let opensTask = surveyFile != nil || value("active") != nil
            var outcome: [StudyOutcomeMapping] = []
            if let list = reader.array(value("outcome"), path: "\(path).outcome") {
                if !opensTask {
                    reader.report("\(path).outcome", "an outcome mapping reads survey answers or active task measures; this task has neither")
                } else if list.isEmpty {
                    reader.report("\(path).outcome", "must not be empty; leave it out to record a boolean 'completed' value")
                }
                outcome = readOutcome(list, path: "\(path).outcome", survey: survey, surveyFile: surveyFile ?? activeTask.map { "active task \($0)" },
                                      isActive: value("active") != nil, reader: &reader)
            }
            let code = readCoding(value("code"), path: "\(path).code", reader: &reader)
            if code != nil, outcome.count > 1 {
                let kinds = outcome.map { $0.kind ?? $0.question }.joined(separator: ", ")
                reader.report("\(path).code", "this task records \(outcome.count) outcome values (\(kinds)); put a code on each outcome entry instead")
            } else if code != nil, outcome.count == 1, outcome[0].code != nil {
                reader.report("\(path).code", "the task's one outcome entry has its own code; give the code once")
            }
            let card = readCard(value("card"), path: path, opens: surveyFile != nil ? .survey : (value("active") != nil ? .activeTask : nil),
                                reader: &reader)
            let allowsLateEntry = reader.bool(value("lateEntry"), path: "\(path).lateEntry") ?? false
            let valueEntry = readValueEntry(value("value"), path: "\(path).value", reader: &reader)
            if card?.entersValue == true, value("value") == nil {
                reader.report("\(path).value", "a \(card?.rawValue ?? "") card records a number the participant enters: say which, as {kind, units, minimum, maximum}")
            } else if card?.entersValue != true, value("value") != nil {
                reader.report("\(path).value", "only numericProgress and labeledValue cards record an entered number; set card to one of them or leave value out")
            }
            var schedule: [StudyScheduleElement?] = []
            if let list = reader.array(value("schedule"), path: "\(path).schedule") {
                if list.isEmpty { reader.report("\(path).schedule", "a task needs at least one schedule element") }
                for (elementIndex, element) in list.enumerated() {
                    let elementPath = "\(path).schedule[\(elementIndex)]"
                    if case .string(let target)? = element["sameAs"] {
                        sameAs.append((index, elementIndex, target, elementPath))
                    }
                    schedule.append(readScheduleElement(element, path: elementPath, reader: &reader))
                }
            }
            guard let id, let title else { continue }
            tasks.append(StudyTaskDefinition(id: id, title: title, instructions: instructions, impactsAdherence: impactsAdherence,
                                             surveyFile: surveyFile, outcome: outcome, schedule: schedule.compactMap { $0 }, code: code,
                                             card: card, allowsLateEntry: allowsLateEntry, valueEntry: valueEntry, activeTask: activeTask))
            if let survey { surveys[id] = survey }
        }
        // `sameAs` copies the named task's own elements (one level: a task whose schedule uses sameAs cannot be named).
        let sameAsTasks = Set(sameAs.map(\.task))
        var copies: [String: [StudyScheduleElement]] = [:]
        for reference in sameAs {
            guard let targetIndex = ids[reference.target] else {
                let hint = JSONDiagnostics.closestKey(to: reference.target, among: Array(ids.keys)).map { "; did you mean '\($0)'?" } ?? ""
                reader.report("\(reference.path).sameAs", "no task has the id '\(reference.target)'\(hint)")
                continue
            }
            if sameAsTasks.contains(targetIndex) {
                reader.report("\(reference.path).sameAs", "task '\(reference.target)' takes its own schedule from another task; name a task with its own schedule")
                continue
            }
            if case .string(let ownID)? = list[reference.task]["id"], let target = tasks.first(where: { $0.id == reference.target }) {
                copies[ownID, default: []] += target.schedule
            }
        }
        for index in tasks.indices { tasks[index].schedule += copies[tasks[index].id] ?? [] }
        return (tasks, surveys, localized)
    }

    /// Reads a task's `card`: one of ``StudyCardKind``, the survey card for a task with a survey and only for it.
    /// Reads a task's `card`: one of ``StudyCardKind``; a task that opens a survey or an active task (`opens`) is
    /// shown on that card, and only such a task.
    func readCard(_ value: JSONTree?, path: String, opens: StudyCardKind?, reader: inout DocumentReader) -> StudyCardKind? {
        guard value != nil, let name = reader.choice(value, path: "\(path).card", allowed: StudyCardKind.allCases.map(\.rawValue)),
              let card = StudyCardKind(rawValue: name) else { return nil }
        if let opens, card != opens {
            let what = opens == .survey ? "a survey" : "an active task"
            reader.report("\(path).card", "a task with \(what) is shown on a\(opens == .survey ? "" : "n") \(opens.rawValue) card; leave card out or write '\(opens.rawValue)'")
        } else if opens == nil, card == .survey {
            reader.report("\(path).card", "a survey card opens the task's survey, and this task has none: name one with 'survey'")
        } else if opens == nil, card == .activeTask {
            reader.report("\(path).card", "an active task card opens the task's test, and this task has none: name one with 'active'")
        }
        return card
    }

    /// Reads a task's `active`: `{task: NAME, …settings}`, built by the active task catalogue under the study task's
    /// identifier; nil (with the problem reported at the setting) when it cannot be built.
    func readActiveTask(_ value: JSONTree, path: String, taskID: String, language: String, reader: inout DocumentReader) -> (String, ResearchTask)? {
        guard case .object(let members) = value else {
            reader.report(path, "expected a mapping such as {task: twoFingerTapping, duration: 20}, found \(value.kindDescription)")
            return nil
        }
        guard let name = reader.string(members.first { $0.key == "task" }?.value, path: "\(path).task") else {
            if !members.contains(where: { $0.key == "task" }) {
                reader.report("\(path).task", "is missing: name the active task (\(ActiveTaskCatalog.names.joined(separator: ", ")))")
            }
            return nil
        }
        let settings = Dictionary(members.filter { $0.key != "task" }.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        do {
            return (name, try ActiveTaskCatalog.task(named: name, identifier: taskID, settings: settings, language: language))
        } catch {
            reader.report("\(path).\(error.path)", error.message)
            return nil
        }
    }

    /// Reads a task's `value`: `{kind, units, minimum, maximum}`, the number a numeric card asks for.
    func readValueEntry(_ value: JSONTree?, path: String, reader: inout DocumentReader) -> StudyValueEntry? {
        guard value != nil, let pairs = reader.object(value, path: path, known: ["kind", "units", "minimum", "maximum"], required: ["kind"]) else {
            return nil
        }
        func member(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
        guard let kind = reader.string(member("kind"), path: "\(path).kind") else { return nil }
        let units = reader.string(member("units"), path: "\(path).units")
        let minimum = member("minimum") == nil ? 0 : reader.number(member("minimum"), path: "\(path).minimum")
        let maximum = member("maximum") == nil ? 1_000_000 : reader.number(member("maximum"), path: "\(path).maximum")
        guard let minimum, let maximum else { return nil }
        guard minimum.isFinite, maximum.isFinite, minimum < maximum else {
            reader.report("\(path).maximum", "must be a number above minimum (\(minimum))")
            return nil
        }
        return StudyValueEntry(kind: kind, units: units, minimum: minimum, maximum: maximum)
    }

    /// Notes `data` (a JSON document of `file`) among the documents with texts, and returns it with this load's
    /// language put in: the translations of the study's files, and for a FHIR Questionnaire those it carries itself in
    /// `translation` extensions where the files have none. A document that is not JSON is returned as it is, for its
    /// reader to report.
    mutating func translatable(_ data: Data, file: String, kind: StudyTextCatalog.DocumentKind) -> Data {
        guard let tree = try? StudyDocumentParser.parseJSON(data) else { return data }
        documents.append((file, tree, kind))
        guard let translation else { return data }
        var texts = kind == .questionnaire || kind == .valueSet
            ? StudyTextCatalog.embeddedTranslations(in: tree, language: translation.language) : [:]
        texts.merge(translation.texts[file] ?? [:]) { _, file in file }
        guard !texts.isEmpty, let translated = try? JSONEncoder().encode(StudyTextCatalog.translating(tree, kind: kind, with: texts)) else {
            return data
        }
        return translated
    }

    /// The survey at `file`, loaded once however many tasks use it; its problems are reported in its own file.
    mutating func loadSurvey(_ file: String, reference: String, reader: inout DocumentReader) -> ResearchTask? {
        if let cached = surveyCache[file] { return cached }
        var survey: ResearchTask?
        if let read = readFile(file, reference: reference, reader: &reader) {
            let format = surveyFormats.first { $0.recognizes(read) }
            let data = translatable(read, file: file, kind: format == nil ? .task : .questionnaire)
            if let format {
                survey = importSurvey(data, format: format, file: file)
            } else if Self.isFHIRQuestionnaire(data) {
                problems.append(StudyProblem(file: file, path: "", message: "a FHIR Questionnaire, and this study was loaded without a survey format "
                    + "that reads one: load it with StudyFHIR's FHIRSurveyFormat (studykit and the server do)"))
            } else {
                do {
                    survey = try TaskValidator.load(data)
                } catch {
                    problems += error.problems.map { StudyProblem(file: file, path: $0.path, message: $0.message) }
                }
                // Calculated items are evaluated against the FHIR Questionnaire they came from.
                for (stepIndex, step) in (survey?.steps ?? []).enumerated() {
                    if case .requestPermissions(let requests) = step.kind {
                        for (requestIndex, request) in requests.enumerated() where request.kind == .email {
                            problems.append(StudyProblem(file: file, path: "steps[\(stepIndex)].permissions[\(requestIndex)].kind",
                                                         message: "the reminder email address is asked for in the onboarding only; once onboarded, "
                                                             + "participants add addresses in Settings → Reminders"))
                        }
                    }
                    if case .active = step.kind {
                        // An active step's settings are checked, and its samples read, by the catalogue that built it.
                        problems.append(StudyProblem(file: file, path: "steps[\(stepIndex)]",
                                                     message: "active steps come from the active task catalogue: give the task 'active: {task: …}' in study.yaml instead of a survey"))
                    }
                    guard case .form(let form) = step.kind else { continue }
                    for (itemIndex, item) in form.items.enumerated() where item.isCalculated {
                        problems.append(StudyProblem(file: file, path: "steps[\(stepIndex)].items[\(itemIndex)].calculation",
                                                     message: "calculated items are evaluated in FHIR Questionnaire surveys only; list the Questionnaire itself as the survey"))
                    }
                }
            }
        }
        surveyCache[file] = survey
        return survey
    }

    /// Reads `valueSets`: FHIR ValueSet files that Questionnaire surveys name in `answerValueSet` by canonical URL
    /// (nothing is fetched from a terminology server).
    mutating func readValueSets(_ value: JSONTree?, reader: inout DocumentReader) {
        guard value != nil, let list = reader.array(value, path: "valueSets") else { return }
        for (index, element) in list.enumerated() {
            let path = "valueSets[\(index)]"
            guard let file = reader.string(element, path: path), let read = readFile(file, reference: path, reader: &reader) else { continue }
            let data = translatable(read, file: file, kind: .valueSet)
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            guard object?["resourceType"] as? String == "ValueSet", let url = object?["url"] as? String else {
                problems.append(StudyProblem(file: file, path: object == nil ? "" : "url",
                                             message: object == nil ? "not valid JSON" : "not a FHIR ValueSet with a url"))
                continue
            }
            if valueSets[url] != nil {
                problems.append(StudyProblem(file: file, path: "url", message: "another file in valueSets has the url \(url)"))
            }
            valueSets[url] = data
        }
    }

    /// Whether `data` is a JSON object whose `resourceType` is `Questionnaire`.
    static func isFHIRQuestionnaire(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["resourceType"] as? String == "Questionnaire"
    }

    /// A survey in another standard, imported by `format`. It must come over whole: every construct the format cannot
    /// carry is a problem in the survey's file, naming its path, so nothing is dropped silently.
    ///
    /// A survey is known by its `url` and `version` when it has them: two files with the same are refused, naming both.
    /// Its task takes the survey's `id` (else its `name`, else the file's name without its extension), which must
    /// be unique in the study too.
    mutating func importSurvey(_ data: Data, format: any StudySurveyFormat, file: String) -> ResearchTask? {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        let fileName = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let identifier = object["id"] as? String ?? object["name"] as? String ?? fileName
        if let url = object["url"] as? String {
            let canonical = (object["version"] as? String).map { "\(url)|\($0)" } ?? url
            if let other = surveyCanonicals[canonical] {
                problems.append(StudyProblem(file: file, path: "url", message: "\(format.name) \(canonical) is also in \(other); each survey must be listed once"))
                return nil
            }
            surveyCanonicals[canonical] = file
        }
        let imported = format.importSurvey(data, taskIdentifier: identifier, valueSets: valueSets)
        notes += imported.notes.map { StudyProblem(file: file, path: $0.path, message: $0.message) }
        guard let task = imported.task, imported.problems.isEmpty else {
            problems += imported.problems.map { StudyProblem(file: file, path: $0.path, message: $0.message) }
            return nil
        }
        if let other = questionnaireFiles[identifier] {
            let source = object["id"] != nil ? "id" : object["name"] != nil ? "name" : "file name"
            problems.append(StudyProblem(file: file, path: source == "file name" ? "" : source,
                                         message: "\(format.name) \(source) '\(identifier)' is also the task identifier of \(other); each survey needs its own"))
            return nil
        }
        questionnaireFiles[identifier] = file
        questionnaires[identifier] = data
        return task
    }

    func readOutcome(_ list: [JSONTree], path: String, survey: ResearchTask?, surveyFile: String?, isActive: Bool,
                     reader: inout DocumentReader) -> [StudyOutcomeMapping] {
        var mappings: [StudyOutcomeMapping] = []
        let source = isActive ? "measure" : "question"
        for (index, element) in list.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let pairs = reader.object(element, path: itemPath, known: ["question", "measure", "kind", "units", "code"]) else { continue }
            func value(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
            if value(source) == nil {
                let wrong = isActive ? "question" : "measure"
                reader.report("\(itemPath).\(source)", value(wrong) != nil
                    ? "this task's outcome comes from \(isActive ? "its active task's measures" : "its survey's answers"): write '\(source)' instead of '\(wrong)'"
                    : "is missing")
                continue
            }
            let code = readCoding(value("code"), path: "\(itemPath).code", reader: &reader)
            guard let reference = reader.string(value(source), path: "\(itemPath).\(source)") else { continue }
            let kind = reader.string(value("kind"), path: "\(itemPath).kind"), units = reader.string(value("units"), path: "\(itemPath).units")
            let mapping = isActive ? StudyOutcomeMapping(measure: reference, kind: kind, units: units, code: code)
                : StudyOutcomeMapping(question: reference, kind: kind, units: units, code: code)
            if let survey, let surveyFile {
                if let message = isActive ? Self.measureProblem(mapping, in: survey) : Self.mappingProblem(mapping, in: survey, file: surveyFile) {
                    reader.report("\(itemPath).\(source)", message)
                    continue
                }
            }
            mappings.append(mapping)
        }
        return mappings
    }

    /// A `code: {system, code, display}` mapping: `system` a URI (LOINC's is `http://loinc.org`), `code` without
    /// leading, trailing or doubled spaces (a LOINC code with its right check digit), `display` optional text.
    func readCoding(_ value: JSONTree?, path: String, reader: inout DocumentReader) -> StudyCoding? {
        guard let pairs = reader.object(value, path: path, known: Self.codingKeys, required: ["system", "code"]) else { return nil }
        func member(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
        let system = reader.string(member("system"), path: "\(path).system")
        let code = reader.scalarText(member("code"), path: "\(path).code")
        let display = reader.string(member("display"), path: "\(path).display")
        var valid = true
        if let system, system.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:[^\\s]+$", options: .regularExpression) == nil {
            let hint = system.lowercased().contains("loinc") ? "; LOINC's is '\(StudyCoding.loincSystem)'" : ""
            reader.report("\(path).system", "'\(system)' is not a code system URI such as \(StudyCoding.loincSystem)\(hint)")
            valid = false
        } else if let system, system != StudyCoding.loincSystem, system.lowercased().contains("loinc.org") {
            reader.report("\(path).system", "'\(system)' is not LOINC's URI; did you mean '\(StudyCoding.loincSystem)'?")
            valid = false
        }
        if let code {
            if code.range(of: "^[^\\s]+( [^\\s]+)*$", options: .regularExpression) == nil {
                reader.report("\(path).code", "'\(code)' must not be empty, start or end with a space, or hold two spaces or other white space")
                valid = false
            } else if system == StudyCoding.loincSystem, !StudyCoding.isValidLOINC(code) {
                let body = code.split(separator: "-").first.map(String.init) ?? code
                let expected = StudyCoding.loincCheckDigit(of: body).map { "; with these digits the check digit is \($0) (\(body)-\($0))" } ?? ""
                reader.report("\(path).code", "'\(code)' is not a LOINC code (1 to 7 digits, a hyphen and a check digit)\(expected)")
                valid = false
            }
        }
        guard valid, let system, let code else { return nil }
        return StudyCoding(system: system, code: code, display: display)
    }

    /// Why `mapping` cannot read a measure of the active task `task`; nil when it can.
    static func measureProblem(_ mapping: StudyOutcomeMapping, in task: ResearchTask) -> String? {
        let activeSteps = task.steps.compactMap { step -> (String, ActiveStepContent)? in
            if case .active(let content) = step.kind, content.module != CountdownModule.name { return (step.identifier, content) }
            return nil
        }
        guard let content = activeSteps.first(where: { $0.0 == mapping.stepIdentifier })?.1 else {
            return "'\(mapping.question)' names no step of the active task; write STEP.MEASURE with a step of \(activeSteps.map(\.0).joined(separator: ", "))"
        }
        let names = ActiveModules.standard[content.module]?.measureNames ?? []
        guard let measure = mapping.itemIdentifier, names.contains(measure) else {
            return "step '\(mapping.stepIdentifier)' has no measure '\(mapping.itemIdentifier ?? "")' (its measures: \(names.joined(separator: ", ")))"
        }
        return nil
    }

    /// Why `mapping` cannot read an answer of `survey`; nil when it can.
    static func mappingProblem(_ mapping: StudyOutcomeMapping, in survey: ResearchTask, file: String) -> String? {
        guard let step = survey.step(withIdentifier: mapping.stepIdentifier) else {
            let questionSteps = survey.steps.filter { !$0.questions.isEmpty }.map(\.identifier)
            let hint = JSONDiagnostics.closestKey(to: mapping.stepIdentifier, among: questionSteps).map { "; did you mean '\($0)'?" } ?? ""
            return "the survey \(file) has no step '\(mapping.stepIdentifier)'\(hint)"
        }
        let item = mapping.itemIdentifier ?? step.identifier
        guard let question = step.questions.first(where: { $0.identifier == item }) else {
            if step.questions.isEmpty { return "step '\(step.identifier)' of \(file) asks no question" }
            if mapping.itemIdentifier == nil {
                return "step '\(step.identifier)' of \(file) is a form; name one of its items as '\(step.identifier).ITEM' (\(step.questions.map(\.identifier).joined(separator: ", ")))"
            }
            return "step '\(step.identifier)' of \(file) has no question '\(item)'"
        }
        if question.format.type.answerKind == .file {
            return "'\(mapping.question)' is a file question; a file cannot be an outcome value"
        }
        if question.format.type.answerKind == .location {
            return "'\(mapping.question)' is a location question; a location cannot be an outcome value"
        }
        return nil
    }

    // MARK: - Schedules

    func readScheduleElement(_ element: JSONTree, path: String, reader: inout DocumentReader) -> StudyScheduleElement? {
        guard let pairs = reader.object(element, path: path, known: Self.elementKeys) else { return nil }
        func value(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
        let kinds = ["daily", "weekly", "once", "sameAs"].filter { value($0) != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            reader.report(path, kinds.isEmpty ? "a schedule element needs one of daily, weekly, once or sameAs"
                          : "a schedule element has exactly one of daily, weekly, once or sameAs (found \(kinds.joined(separator: " and ")))")
            return nil
        }
        if kind == "sameAs" {
            _ = reader.string(value("sameAs"), path: "\(path).sameAs")
            for key in ["duration", "text", "targetValues"] where value(key) != nil {
                reader.report("\(path).\(key)", "an element with sameAs takes everything from the named task's schedule")
            }
            return nil
        }
        var duration = ScheduleDuration.oneHour
        switch value("duration") {
        case nil: break
        case .string("allDay")?: duration = .allDay
        case let minutes? where (minutes.doubleValue ?? 0) > 0: duration = .minutes(minutes.doubleValue ?? 0)
        case .some(let other):
            reader.report("\(path).duration", "expected a number of minutes greater than 0 or \"allDay\", found \(other == .string("") ? "empty text" : describe(other))")
        }
        let text = reader.string(value("text"), path: "\(path).text")
        let targets = readTargetValues(value("targetValues"), path: "\(path).targetValues", reader: &reader)
        let kindPath = "\(path).\(kind)"
        switch kind {
        case "once":
            guard let once = reader.object(value(kind), path: kindPath, known: ["day", "at"], required: ["day"]) else { return nil }
            let day = reader.integer(once.first { $0.key == "day" }?.value, path: "\(kindPath).day", in: 0...36_500)
            let time = readTime(once.first { $0.key == "at" }?.value, path: "\(kindPath).at", duration: duration, reader: &reader)
            guard let day, let time else { return nil }
            return StudyScheduleElement(repetition: .once, hour: time.hour, minute: time.minute, firstDay: day, lastDay: day,
                                        duration: duration, text: text, targetValues: targets)
        default:
            let known = kind == "weekly" ? ["on", "at", "from", "for", "until"] : ["at", "every", "from", "for", "until"]
            guard let repeating = reader.object(value(kind), path: kindPath, known: known, required: kind == "weekly" ? ["on"] : []) else { return nil }
            func field(_ key: String) -> JSONTree? { repeating.first { $0.key == key }?.value }
            var repetition = StudyScheduleElement.Repetition.daily
            var failed = false
            if kind == "weekly" {
                var weekdays: [Locale.Weekday] = []
                if let list = reader.array(field("on"), path: "\(kindPath).on") {
                    if list.isEmpty { reader.report("\(kindPath).on", "name at least one weekday") }
                    let names = StudyScheduleElement.weekdayNames.map(\.name)
                    for (index, entry) in list.enumerated() {
                        let entryPath = "\(kindPath).on[\(index)]"
                        guard let name = reader.string(entry, path: entryPath) else { failed = true; continue }
                        guard let weekday = StudyScheduleElement.weekdayNames.first(where: { $0.name == name.lowercased() })?.weekday else {
                            let hint = JSONDiagnostics.closestKey(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
                            reader.report(entryPath, "'\(name)' is not a weekday\(hint) (monday … sunday)")
                            failed = true
                            continue
                        }
                        if weekdays.contains(weekday) { reader.report(entryPath, "'\(name)' is listed twice") } else { weekdays.append(weekday) }
                    }
                    weekdays.sort { a, b in
                        StudyScheduleElement.weekdayNames.firstIndex { $0.weekday == a }! < StudyScheduleElement.weekdayNames.firstIndex { $0.weekday == b }!
                    }
                } else {
                    failed = true
                }
                repetition = .weekly(weekdays)
                if weekdays.isEmpty { failed = true }
            }
            let time = readTime(field("at"), path: "\(kindPath).at", duration: duration, reader: &reader)
            let from = field("from") == nil ? 0 : reader.integer(field("from"), path: "\(kindPath).from", in: 0...36_500)
            var lastDay: Int?
            if field("for") != nil, field("until") != nil {
                reader.report(kindPath, "give either 'for' or 'until', not both")
                failed = true
            } else if let forValue = field("for") {
                if let span = reader.object(forValue, path: "\(kindPath).for", known: ["days", "weeks"]) {
                    if span.count != 1 {
                        reader.report("\(kindPath).for", "give exactly one of days or weeks, such as {weeks: 6}")
                        failed = true
                    } else if let count = reader.integer(span[0].value, path: "\(kindPath).for.\(span[0].key)", in: 1...5_200), let from {
                        lastDay = from + count * (span[0].key == "weeks" ? 7 : 1) - 1
                    } else {
                        failed = true
                    }
                } else {
                    failed = true
                }
            } else if field("until") != nil {
                if let until = reader.integer(field("until"), path: "\(kindPath).until", in: 0...36_500) {
                    if let from, until < from {
                        reader.report("\(kindPath).until", "day \(until) is before the first day (from: \(from)); 'until' is the last day with an event")
                        failed = true
                    }
                    lastDay = until
                } else {
                    failed = true
                }
            }
            let every = field("every") == nil ? 1 : reader.integer(field("every"), path: "\(kindPath).every", in: 1...365)
            guard !failed, let time, let from, let every else { return nil }
            return StudyScheduleElement(repetition: repetition, hour: time.hour, minute: time.minute, firstDay: from, lastDay: lastDay,
                                        duration: duration, text: text, targetValues: targets, everyDays: every)
        }
    }

    private func describe(_ value: JSONTree) -> String {
        if case .string(let text) = value { return "'\(text)'" }
        return DocumentReader.kind(of: value)
    }

    /// `HH:MM` on a 24-hour clock; optional (midnight) only for all-day events.
    func readTime(_ value: JSONTree?, path: String, duration: ScheduleDuration, reader: inout DocumentReader) -> (hour: Int, minute: Int)? {
        guard let value else {
            if duration == .allDay { return (0, 0) }
            reader.report(path, "is required but missing (a time such as \"08:00\"; only an allDay event may leave it out)")
            return nil
        }
        guard let text = reader.scalarText(value, path: path) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) }) else {
            reader.report(path, "'\(text)' is not a time of day; write HH:MM on a 24-hour clock, such as \"08:00\" or \"18:30\"")
            return nil
        }
        return (hour, minute)
    }

    func readTargetValues(_ value: JSONTree?, path: String, reader: inout DocumentReader) -> [OutcomeValue] {
        guard let list = reader.array(value, path: path) else { return [] }
        var values: [OutcomeValue] = []
        for (index, element) in list.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let pairs = reader.object(element, path: itemPath, known: ["value", "kind", "units"], required: ["value"]) else { continue }
            func field(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
            let kind = reader.string(field("kind"), path: "\(itemPath).kind")
            let units = reader.string(field("units"), path: "\(itemPath).units")
            switch field("value") {
            case .number(let text)?:
                values.append(OutcomeValue(Int(text).map { .integer($0) } ?? .double(Double(text) ?? .nan), kind: kind, units: units))
            case .bool(let flag)?:
                values.append(OutcomeValue(.boolean(flag), kind: kind, units: units))
            case .string(let text)?:
                values.append(OutcomeValue(.text(text), kind: kind, units: units))
            case .some(let other):
                reader.report("\(itemPath).value", "expected a number, true or false, or text, found \(DocumentReader.kind(of: other))")
            case nil:
                break
            }
        }
        return values
    }

    // MARK: - Contacts

    func readContacts(_ value: JSONTree?, reader: inout DocumentReader) -> [StudyContact] {
        guard let list = reader.array(value, path: "contacts") else { return [] }
        var contacts: [StudyContact] = []
        var seen: [String: Int] = [:]
        for (index, element) in list.enumerated() {
            let path = "contacts[\(index)]"
            guard let pairs = reader.object(element, path: path, known: Self.contactKeys, required: ["id"]) else { continue }
            func field(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
            // A contact given twice is reported and left out.
            guard let id = reader.identifier(field("id"), path: "\(path).id", index: index, seen: &seen, kind: "contact", list: "contacts"),
                  seen[id] == index else { continue }
            var name = PersonNameComponents()
            name.givenName = reader.string(field("givenName"), path: "\(path).givenName")
            name.familyName = reader.string(field("familyName"), path: "\(path).familyName")
            if name.givenName == nil, name.familyName == nil, field("givenName") == nil, field("familyName") == nil {
                reader.report(path, "a contact needs a givenName, a familyName or both")
            }
            var category: Contact.Category?
            if let text = reader.choice(field("category"), path: "\(path).category", allowed: ["careProvider", "friend", "family"]) {
                category = Contact.Category(rawValue: text)
            }
            var address: PostalAddress?
            if let parts = reader.object(field("address"), path: "\(path).address", known: ["street", "city", "state", "postalCode", "country"]) {
                func part(_ key: String) -> String? { reader.scalarText(parts.first { $0.key == key }?.value, path: "\(path).address.\(key)") }
                address = PostalAddress(street: part("street"), city: part("city"), state: part("state"), postalCode: part("postalCode"), country: part("country"))
            }
            contacts.append(StudyContact(
                id: id, name: name, title: reader.string(field("title"), path: "\(path).title"),
                role: reader.string(field("role"), path: "\(path).role"),
                organization: reader.string(field("organization"), path: "\(path).organization"), category: category,
                phoneNumbers: readLabeled(field("phones"), path: "\(path).phones", reader: &reader),
                emailAddresses: readLabeled(field("emails"), path: "\(path).emails", reader: &reader),
                messagingNumbers: readLabeled(field("messaging"), path: "\(path).messaging", reader: &reader),
                address: address))
        }
        return contacts
    }

    func readLabeled(_ value: JSONTree?, path: String, reader: inout DocumentReader) -> [LabeledValue] {
        guard let list = reader.array(value, path: path) else { return [] }
        var values: [LabeledValue] = []
        for (index, element) in list.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let pairs = reader.object(element, path: itemPath, known: ["label", "value"], required: ["label", "value"]) else { continue }
            if let label = reader.string(pairs.first { $0.key == "label" }?.value, path: "\(itemPath).label"),
               let text = reader.scalarText(pairs.first { $0.key == "value" }?.value, path: "\(itemPath).value") {
                values.append(LabeledValue(label: label, value: text))
            }
        }
        return values
    }
}
