import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import JSONDiagnostics
import Research

/// The files translators' tools read and write (Xcode, Weblate, Crowdin, Phrase): XLIFF 1.2 and Apple's String
/// Catalog. Each of a study's texts is one unit, named by its file and key, with its source, the language's
/// translation when there is one, and a note saying what the text is.
///
/// ```swift
/// let data = TranslatorFile.write(texts, translations: existing, sourceLanguage: "en", language: "ja", format: .xliff)
/// let read = try TranslatorFile.read(data, format: .xliff)   // the language and each unit with its line
/// ```
public enum TranslatorFile {
    /// A translators' file format.
    public enum Format: String, Hashable, Sendable, CaseIterable {
        /// XLIFF 1.2: one `<file>` per study file, one `<trans-unit>` per text.
        case xliff
        /// Apple's String Catalog (`.xcstrings`): one string per text, keyed `FILE#KEY`.
        case xcstrings
    }

    /// One text as a translators' file holds it.
    public struct Unit: Hashable, Sendable {
        /// The study file the text is in.
        public var file: String
        /// The text's key in that file.
        public var key: String
        /// The source text, as the file gives it.
        public var source: String?
        /// The translation; nil when the file has none.
        public var target: String?
        /// The line of the unit in the translators' file.
        public var line: Int

        /// A unit; see the properties.
        public init(file: String, key: String, source: String?, target: String?, line: Int) {
            self.file = file
            self.key = key
            self.source = source
            self.target = target
            self.line = line
        }
    }

    /// Writes every one of `texts` with its translation into `language` from `translations` (by file, then key).
    public static func write(_ texts: [StudyText], translations: [String: [String: String]], sourceLanguage: String, language: String,
                             format: Format) -> Data {
        switch format {
        case .xliff: xliff(texts, translations: translations, sourceLanguage: sourceLanguage, language: language)
        case .xcstrings: xcstrings(texts, translations: translations, sourceLanguage: sourceLanguage, language: language)
        }
    }

    /// The largest translators' file read: as large as a study file may be (``StudyLoader/maximumFileBytes``, 8 MiB),
    /// since what it holds goes into one (`translations/LANGUAGE.yaml`). A study's texts in one language are a few
    /// hundred kilobytes of XLIFF.
    public static let maximumBytes = StudyLoader.maximumFileBytes

    /// Reads the translators' file at `url` as ``read(_:format:)`` does, after checking its size: a file larger than
    /// ``maximumBytes`` is refused before any of it is read.
    public static func read(contentsOf url: URL, format: Format) throws(TranslatorFileError) -> (language: String?, units: [Unit]) {
        if let size = StudyLoader.oversizedFileSize(url) { throw oversized(size) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TranslatorFileError(line: nil, key: nil, message: "the file cannot be read: \(error.localizedDescription)")
        }
        return try read(data, format: format)
    }

    /// Reads a translators' file: its target language (nil for a String Catalog without any translation yet) and its
    /// units, in order. Throws ``TranslatorFileError`` for a file larger than ``maximumBytes`` and for a
    /// file that is not the format, with the line where it could tell.
    public static func read(_ data: Data, format: Format) throws(TranslatorFileError) -> (language: String?, units: [Unit]) {
        guard data.count <= maximumBytes else { throw oversized(data.count) }
        switch format {
        case .xliff: return try readXLIFF(data)
        case .xcstrings: return try readCatalog(data)
        }
    }

    private static func oversized(_ size: Int) -> TranslatorFileError {
        TranslatorFileError(line: nil, key: nil, message: "the file is \(size) bytes, more than the \(maximumBytes) bytes (8 MiB) a translators' file may have; it was not read")
    }

    // MARK: - XLIFF

    private static func xliff(_ texts: [StudyText], translations: [String: [String: String]], sourceLanguage: String, language: String) -> Data {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">

            """
        var files: [String] = []
        for text in texts where !files.contains(text.file) { files.append(text.file) }
        for file in files {
            out += "  <file original=\"\(escaped(file, attribute: true))\" source-language=\"\(escaped(sourceLanguage, attribute: true))\" "
                + "target-language=\"\(escaped(language, attribute: true))\" datatype=\"plaintext\">\n"
            out += "    <body>\n"
            for text in texts where text.file == file {
                out += "      <trans-unit id=\"\(escaped(text.key, attribute: true))\" xml:space=\"preserve\">\n"
                out += "        <source>\(escaped(text.source))</source>\n"
                if let target = translations[file]?[text.key] { out += "        <target state=\"translated\">\(escaped(target))</target>\n" }
                out += "        <note>\(escaped(text.note))</note>\n"
                out += "      </trans-unit>\n"
            }
            out += "    </body>\n  </file>\n"
        }
        out += "</xliff>\n"
        return Data(out.utf8)
    }

    /// `text` for XML: HTML's escapes (which XML reads too) for element text; an attribute also keeps its line breaks
    /// and tabs, which XML would otherwise read as spaces.
    private static func escaped(_ text: String, attribute: Bool = false) -> String {
        let escaped = HTMLEscaping.escape(text)
        guard attribute else { return escaped }
        return escaped.replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\r", with: "&#13;")
            .replacingOccurrences(of: "\t", with: "&#9;")
    }

    private static func readXLIFF(_ data: Data) throws(TranslatorFileError) -> (language: String?, units: [Unit]) {
        // Translators' tools write no DTD: entities (a billion laughs, a file of the server's) are never read.
        if let range = data.range(of: Data("<!DOCTYPE".utf8)) {
            let line = data[..<range.lowerBound].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            throw TranslatorFileError(line: line, key: nil, message: "an XLIFF file has no DOCTYPE: its entities are not read")
        }
        let reader = XLIFFReader()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        if !parser.parse() {
            if let failure = reader.failure { throw TranslatorFileError(line: reader.failureLine, key: nil, message: failure) }
            // libxml2 reads on after the first error, so the parser's own line is by then the file's last: the line is
            // the one where the error was found.
            throw TranslatorFileError(line: reader.errorLine ?? parser.lineNumber, key: nil,
                                      message: "not well-formed XML (at column \(reader.errorColumn ?? parser.columnNumber))")
        }
        if let failure = reader.failure { throw TranslatorFileError(line: reader.failureLine, key: nil, message: failure) }
        guard reader.ended else {
            throw TranslatorFileError(line: parser.lineNumber, key: nil, message: "the file ends before </xliff>: it was cut short")
        }
        guard let language = reader.language else {
            throw TranslatorFileError(line: nil, key: nil, message: "no <file> says its target-language")
        }
        return (language, reader.units)
    }

    /// Reads XLIFF 1.2's files and trans-units, each with its line.
    private final class XLIFFReader: NSObject, XMLParserDelegate {
        var units: [Unit] = []
        var language: String?
        var failure: String?
        var failureLine: Int?
        /// Whether `</xliff>` was read: the whole file is there.
        var ended = false
        /// Where the parser first found the file not well-formed.
        var errorLine: Int?, errorColumn: Int?
        private var file: String?
        private var unit: Unit?
        private var element: String?
        private var buffer = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            guard failure == nil else { return }
            switch name {
            case "xliff":
                if let version = attributes["version"], version != "1.2" { fail("XLIFF \(version): this reads XLIFF 1.2", parser) }
            case "file":
                guard let original = attributes["original"], let target = attributes["target-language"] else {
                    return fail("a <file> needs original and target-language", parser)
                }
                if let language, language != target { return fail("the file mixes target languages \(language) and \(target)", parser) }
                language = target
                file = original
            case "trans-unit":
                guard let file, let id = attributes["id"] else { return fail("a <trans-unit> needs an id, inside a <file>", parser) }
                unit = Unit(file: file, key: id, source: nil, target: nil, line: parser.lineNumber)
            case "source", "target":
                element = name
                buffer = ""
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if element != nil { buffer += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard failure == nil else { return }
            switch name {
            case "source": unit?.source = buffer; element = nil
            case "target": unit?.target = buffer; element = nil
            case "trans-unit":
                if let unit { units.append(unit) }
                unit = nil
            case "file": file = nil
            case "xliff": ended = true
            default: break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            guard errorLine == nil else { return }
            errorLine = parser.lineNumber
            errorColumn = parser.columnNumber
        }

        private func fail(_ message: String, _ parser: XMLParser) {
            failure = message
            failureLine = parser.lineNumber
            parser.abortParsing()
        }
    }

    // MARK: - String Catalog

    /// The key of a text in a String Catalog: its file and key.
    static func catalogKey(file: String, key: String) -> String { file + "#" + key }

    private static func xcstrings(_ texts: [StudyText], translations: [String: [String: String]], sourceLanguage: String, language: String) -> Data {
        var strings: [JSONTree.Member] = []
        for text in texts {
            var localizations = [JSONTree.Member(key: sourceLanguage, value: stringUnit(text.source))]
            if let target = translations[text.file]?[text.key] { localizations.append(JSONTree.Member(key: language, value: stringUnit(target))) }
            strings.append(JSONTree.Member(key: catalogKey(file: text.file, key: text.key), value: .object([
                JSONTree.Member(key: "comment", value: .string(text.note)),
                JSONTree.Member(key: "extractionState", value: .string("manual")),
                JSONTree.Member(key: "localizations", value: .object(localizations)),
            ])))
        }
        let catalog = JSONTree.object([JSONTree.Member(key: "sourceLanguage", value: .string(sourceLanguage)),
                                       JSONTree.Member(key: "strings", value: .object(strings)),
                                       JSONTree.Member(key: "version", value: .string("1.0"))])
        // Keys sorted, as Xcode writes catalogs: the same texts give the same file.
        return ((try? ResearchJSON.encoder().encode(catalog)) ?? Data()) + Data("\n".utf8)
    }

    private static func stringUnit(_ value: String) -> JSONTree {
        .object([JSONTree.Member(key: "stringUnit", value: .object([JSONTree.Member(key: "state", value: .string("translated")),
                                                                    JSONTree.Member(key: "value", value: .string(value))]))])
    }

    private static func readCatalog(_ data: Data) throws(TranslatorFileError) -> (language: String?, units: [Unit]) {
        let tree: JSONTree
        do { tree = try JSONTree(data: data) } catch { throw TranslatorFileError(line: error.line, key: nil, message: error.message) }
        guard case .string(let source)? = tree["sourceLanguage"], case .object(let strings)? = tree["strings"] else {
            throw TranslatorFileError(line: nil, key: nil, message: "a String Catalog has sourceLanguage and strings")
        }
        let text = String(decoding: data, as: UTF8.self)
        var language: String?
        var units: [Unit] = []
        for entry in strings {
            let line = Self.line(of: entry.key, in: text)
            guard let separator = entry.key.firstIndex(of: "#") else {
                throw TranslatorFileError(line: line, key: entry.key, message: "a key is FILE#KEY, such as surveys/pain.json#steps[painLevel].title")
            }
            var unit = Unit(file: String(entry.key[..<separator]), key: String(entry.key[entry.key.index(after: separator)...]),
                            source: nil, target: nil, line: line)
            if case .object(let localizations)? = entry.value["localizations"] {
                for localization in localizations {
                    guard case .string(let value)? = localization.value["stringUnit"]?["value"] else {
                        throw TranslatorFileError(line: line, key: entry.key, message: "the \(localization.key) localization has no stringUnit value")
                    }
                    if localization.key == source {
                        unit.source = value
                    } else {
                        if let language, language != localization.key {
                            throw TranslatorFileError(line: line, key: entry.key, message: "the file holds two languages, \(language) and \(localization.key): import one at a time")
                        }
                        language = localization.key
                        unit.target = value
                    }
                }
            }
            units.append(unit)
        }
        return (language, units)
    }

    /// The line of `key`'s first appearance as a JSON string in `text` (1 when it cannot be found).
    private static func line(of key: String, in text: String) -> Int {
        guard let range = text.range(of: StudyTranslations.quoted(key)) else { return 1 }
        return text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }
}

/// Why a translators' file was refused: what, and where (its line, and the text's key when it is about one).
public struct TranslatorFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int?
    public var key: String?
    public var message: String

    public init(line: Int?, key: String?, message: String) {
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        [line.map { "line \($0)" }, key, message].compactMap { $0 }.joined(separator: ": ")
    }
}
