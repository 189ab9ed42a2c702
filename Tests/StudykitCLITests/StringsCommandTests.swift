import Foundation
import Testing

/// `studykit strings export|import` on a copy of Recover: a file exported and imported untouched changes nothing, a
/// translated one lands in translations/LANGUAGE.yaml and the study then shows it, and a file that breaks a placeholder,
/// names an unknown text or was made for an older source is refused with the line and key, writing nothing.
@Suite("studykit strings")
struct StringsCommandTests {
    /// A copy of the example studies (Recover's consent documents are a folder up), and Recover's folder in it.
    private func recoverCopy() throws -> (root: URL, study: URL) {
        let root = try StudykitProcess.temporaryFolder()
        try FileManager.default.copyItem(at: StudykitProcess.packageRoot.appendingPathComponent("examples"), to: root.appendingPathComponent("examples"))
        // Untranslated, every language falling back: the tests translate it.
        let study = root.appendingPathComponent("examples/studies/recover")
        try FileManager.default.removeItem(at: study.appendingPathComponent("translations"))
        try String(contentsOf: study.appendingPathComponent("study.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "languages: [en, ja, zh-Hans, ko, es]\n", with: "languages: [en, ja, zh-Hans, ko, es]\ntranslation:\n  fallback: [ja, zh-Hans, ko, es]\n")
            .write(to: study.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
        return (root, study)
    }

    private func translations(_ study: URL, _ language: String) -> String? {
        try? String(contentsOf: study.appendingPathComponent("translations/\(language).yaml"), encoding: .utf8)
    }

    @Test(arguments: ["xliff", "xcstrings"])
    func anUntouchedFileChangesNothingAndATranslatedOneIsTaken(format: String) throws {
        let (root, study) = try recoverCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("zh-Hans.\(format)").path
        let exported = try StudykitProcess.run(["strings", "export", "--study", study.path, "--language", "zh-Hans", "--format", format, "--out", file])
        #expect(exported.status == 0 && exported.stdout.hasSuffix("texts, 0 translated into zh-Hans\n"), "\(exported.stderr)")
        let untouched = try StudykitProcess.run(["strings", "import", file, "--study", study.path, "--language", "zh-Hans"])
        #expect(untouched.status == 0 && untouched.stdout.hasPrefix("translations/zh-Hans.yaml: unchanged"), "\(untouched.stdout)\(untouched.stderr)")
        #expect(translations(study, "zh-Hans") == nil)

        // A translator translates every text ("翻译：" before the English stands in for the Chinese).
        var text = try String(contentsOfFile: file, encoding: .utf8)
        if format == "xliff" {
            let regex = try NSRegularExpression(pattern: #"(<source>)(.*?)(</source>\n)"#, options: [.dotMatchesLineSeparators])
            text = regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1$2$3        <target>翻译：$2</target>\n")
        } else {
            var catalog = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            var strings = try #require(catalog["strings"] as? [String: [String: Any]])
            for (key, var entry) in strings {
                var localizations = try #require(entry["localizations"] as? [String: Any])
                let source = try #require(((localizations["en"] as? [String: Any])?["stringUnit"] as? [String: Any])?["value"] as? String)
                localizations["zh-Hans"] = ["stringUnit": ["state": "translated", "value": "翻译：" + source]]
                entry["localizations"] = localizations
                strings[key] = entry
            }
            catalog["strings"] = strings
            text = String(decoding: try JSONSerialization.data(withJSONObject: catalog, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
        }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try StudykitProcess.run(["strings", "import", file, "--study", study.path])
        #expect(imported.status == 0 && imported.stdout.contains("translated into zh-Hans"), "\(imported.stdout)\(imported.stderr)")
        let yaml = try #require(translations(study, "zh-Hans"))
        #expect(yaml.contains(#""tasks[pain].title": "翻译：Daily pain check""#), "\(yaml.prefix(600))")

        // Chinese no longer falls back: the study is valid with every Chinese text, and shows no note for Chinese.
        try String(contentsOf: study.appendingPathComponent("study.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "fallback: [ja, zh-Hans, ko, es]", with: "fallback: [ja, ko, es]")
            .write(to: study.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
        let valid = try StudykitProcess.run(["validate", study.path])
        #expect(valid.status == 0 && !valid.stdout.contains("translations/zh-Hans.yaml"), "\(valid.stdout)")
        // Exported again and imported again: the same file.
        let again = root.appendingPathComponent("again.\(format)").path
        #expect(try StudykitProcess.run(["strings", "export", "--study", study.path, "--language", "zh-Hans", "--format", format, "--out", again]).status == 0)
        let reimported = try StudykitProcess.run(["strings", "import", again, "--study", study.path])
        #expect(reimported.stdout.hasPrefix("translations/zh-Hans.yaml: unchanged"), "\(reimported.stdout)\(reimported.stderr)")
        #expect(translations(study, "zh-Hans") == yaml)
    }

    @Test func aBrokenPlaceholderAnUnknownKeyAndAnOldSourceAreRefusedWithTheirLines() throws {
        let (root, study) = try recoverCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        try String(contentsOf: study.appendingPathComponent("study.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "title: Daily pain check", with: "title: Pain check for {name}")
            .write(to: study.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
        let file = root.appendingPathComponent("es.xliff").path
        #expect(try StudykitProcess.run(["strings", "export", "--study", study.path, "--language", "es", "--out", file]).status == 0)
        var lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
        let unit = try #require(lines.firstIndex { $0.contains(#"<trans-unit id="tasks[pain].title""#) })
        lines.insert("        <target>Control del dolor de {nombre}</target>", at: unit + 2)
        let other = try #require(lines.firstIndex { $0.contains(#"<trans-unit id="tasks[exercises].title""#) })
        lines[other] = lines[other].replacingOccurrences(of: "tasks[exercises].title", with: "tasks[exercise].title")
        let old = try #require(lines.firstIndex { $0.contains("<source>Weekly function survey</source>") })
        lines[old] = "        <source>Weekly survey</source><target>Encuesta semanal</target>"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)

        let refused = try StudykitProcess.run(["strings", "import", file, "--study", study.path])
        #expect(refused.status == 1)
        let errors = refused.stderr.split(separator: "\n").map(String.init)
        #expect(errors.contains { $0.hasSuffix("\(file): line \(unit + 1): study.yaml#tasks[pain].title: the placeholders [\"{nombre}\"] differ from the source's [\"{name}\"]") },
                "\(errors)")
        #expect(errors.contains { $0.hasSuffix("\(file): line \(other + 1): study.yaml#tasks[exercise].title: the study has no such text") }, "\(errors)")
        #expect(errors.contains { $0.contains("study.yaml#tasks[weekly].title: the source text has changed since the file was made") }, "\(errors)")
        #expect(translations(study, "es") == nil, "nothing is written")
    }

    /// libxml2 reads on after a file's first error: the error is named at its own line, not at the file's last.
    @Test func aFileThatIsNotWellFormedIsRefusedAtTheLineOfItsFault() throws {
        let (root, study) = try recoverCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("es.xliff").path
        #expect(try StudykitProcess.run(["strings", "export", "--study", study.path, "--language", "es", "--out", file]).status == 0)
        var lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
        let broken = try #require(lines.firstIndex { $0.contains("</source>") })
        #expect(lines.count > broken + 100, "the fault is far from the end")
        lines[broken] = lines[broken].replacingOccurrences(of: "</source>", with: "</sorce>")
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)

        let refused = try StudykitProcess.run(["strings", "import", file, "--study", study.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("studykit strings: \(file): line \(broken + 1): not well-formed XML (at column "), "\(refused.stderr)")
        #expect(translations(study, "es") == nil, "nothing is written")
    }

    /// A translators' file is limited as a study file is (8 MiB), and refused before it is read.
    @Test func aFileLargerThanAStudyFileMayBeIsRefusedUnread() throws {
        let (root, study) = try recoverCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("huge.xliff")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(8 << 20) + 1) // a sparse file: nothing of it is on disk, or read
        try handle.close()

        let refused = try StudykitProcess.run(["strings", "import", file.path, "--study", study.path])
        #expect(refused.status == 1)
        #expect(refused.stderr == "studykit strings: \(file.path): the file is 8388609 bytes, more than the 8388608 bytes (8 MiB) a translators' file may have; it was not read\n")
        #expect(translations(study, "es") == nil)
    }
}
