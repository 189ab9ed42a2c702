import ArgumentParser
import Foundation
import Study
import StudyFHIR

/// `studykit strings export|import`: a study's texts in the files translators' tools read (XLIFF 1.2, String
/// Catalogs), and their translations read back into the study folder's `translations/LANGUAGE.yaml`.
struct StringsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strings",
        abstract: "Hand a study's texts to translators and take their translations back.",
        subcommands: [Export.self, Import.self]
    )

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every text of a study with its key, source, translation (when there is one) and a note.",
            discussion: """
                Writes XLIFF 1.2 (one <file> per study file) or a String Catalog (one string per text, keyed \
                FILE#KEY) for one of the study's languages, to --out or standard output.
                """
        )

        @Option(help: "The study folder.", completion: .directory)
        var study: String = StudyPaths.defaultStudy

        @Option(help: "The language to translate into: one of the study's languages after the first.")
        var language: String

        @Option(help: "xliff or xcstrings.")
        var format: TranslatorFile.Format = .xliff

        @Option(help: "The file to write (default: standard output).", completion: .file())
        var out: String?

        func run() throws {
            let folder = URL(fileURLWithPath: study, isDirectory: true)
            let (definition, texts) = try StringsCommand.texts(of: folder)
            guard definition.languages.dropFirst().contains(language) else {
                throw StringsCommand.fail("'\(language)' is not one of the study's languages after the first (\(definition.languages.joined(separator: ", ")))")
            }
            let (translations, problems) = StudyTranslations.read(folder: folder)
            guard problems.isEmpty else { throw StringsCommand.fail(problems.map(\.description).joined(separator: "\n")) }
            let data = TranslatorFile.write(texts, translations: translations.texts[language] ?? [:], sourceLanguage: definition.defaultLanguage,
                                            language: language, format: format)
            if let out {
                do { try data.write(to: URL(fileURLWithPath: out), options: .atomic) } catch {
                    throw StringsCommand.fail("cannot write \(out): \(error.localizedDescription)")
                }
                let done = texts.filter { translations.texts[language]?[$0.file]?[$0.key] != nil }.count
                print("\(out): \(texts.count) texts, \(done) translated into \(language)")
            } else {
                FileHandle.standardOutput.write(data)
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a translated XLIFF or String Catalog file into the study folder's translations/LANGUAGE.yaml.",
            discussion: """
                Every unit must name a text the study has, with the source it has now and the same placeholders (%@, \
                %d, {name}); otherwise nothing is written and each fault is printed with its line and key. A unit without \
                a translation keeps the one there was. The format is found from the file's extension (.xliff, .xlf, \
                .xcstrings) unless --format says. A file larger than 8 MiB, as large as a study file may be, is refused \
                before it is read.
                """
        )

        @Argument(help: "The translated file.", completion: .file())
        var file: String

        @Option(help: "The study folder.", completion: .directory)
        var study: String = StudyPaths.defaultStudy

        @Option(help: "xliff or xcstrings (default: from the file's extension).")
        var format: TranslatorFile.Format?

        @Option(help: "The language the file translates into (default: the one it names; a String Catalog without any translation names none).")
        var language: String?

        func run() throws {
            let folder = URL(fileURLWithPath: study, isDirectory: true)
            let kind: TranslatorFile.Format
            if let format { kind = format } else {
                switch (file as NSString).pathExtension.lowercased() {
                case "xliff", "xlf": kind = .xliff
                case "xcstrings": kind = .xcstrings
                default: throw StringsCommand.fail("\(file): give --format xliff or xcstrings (the extension does not say)")
                }
            }
            guard FileManager.default.isReadableFile(atPath: file) else { throw StringsCommand.fail("cannot read \(file)") }
            let read: (language: String?, units: [TranslatorFile.Unit])
            do {
                read = try TranslatorFile.read(contentsOf: URL(fileURLWithPath: file), format: kind)
            } catch {
                throw StringsCommand.fail("\(file): \(error)")
            }
            if let named = read.language, let language, named != language {
                throw StringsCommand.fail("\(file) translates into \(named), not \(language)")
            }
            guard let language = language ?? read.language else {
                throw StringsCommand.fail("\(file) holds no translation, so it does not say its language: give --language")
            }
            let (definition, texts) = try StringsCommand.texts(of: folder)
            let (translations, problems) = StudyTranslations.read(folder: folder)
            guard problems.isEmpty else { throw StringsCommand.fail(problems.map(\.description).joined(separator: "\n")) }
            let merged: [String: [String: String]]
            do {
                merged = try translations.importing(read.units, language: language, texts: texts, languages: definition.languages)
            } catch {
                throw StringsCommand.fail(error.errors.map { "\(file): \($0)" }.joined(separator: "\n"))
            }
            let target = folder.appendingPathComponent(StudyTranslations.file(of: language))
            if merged == (translations.texts[language] ?? [:]) {
                print("\(StudyTranslations.file(of: language)): unchanged (\(read.units.count) units read)")
                return
            }
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(StudyTranslations.yaml(merged, texts: texts, language: language).utf8).write(to: target, options: .atomic)
            } catch {
                throw StringsCommand.fail("cannot write \(target.path): \(error.localizedDescription)")
            }
            let count = merged.values.reduce(0) { $0 + $1.count }
            print("\(StudyTranslations.file(of: language)): \(count) of \(texts.count) texts translated into \(language)")
        }
    }

    /// The study's texts, or its problems as the command's failure.
    static func texts(of folder: URL) throws -> (StudyDefinition, [StudyText]) {
        do { return try StudyLoader.texts(folder: folder, surveyFormats: [FHIRSurveyFormat()]) } catch {
            throw fail("the study in \(folder.path) has problems:\n" + error.problems.map(\.description).joined(separator: "\n"))
        }
    }

    /// Prints `studykit strings: MESSAGE` on standard error; the exit code is 1.
    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("studykit strings: \(message)\n".utf8))
        return ExitCode(1)
    }
}

extension TranslatorFile.Format: ExpressibleByArgument {}
