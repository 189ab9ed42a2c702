import Foundation
import Interop
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// HL7's official FHIRPath test suite for R4 (`tests-fhir-r4.xml`, 711 tests over four example resources), read from
/// `../shared/fixtures/fhirpath/` and never copied in. Every test passes, or is listed with its reason in
/// `FHIRPathSuiteExclusions.txt` beside this file; a listed test that passes fails the run too, so the list
/// stays exactly the tests that do not pass.
@Suite("FHIRPath: HL7's R4 test suite")
struct FHIRPathSuiteTests {
    static let folder = HL7Fixtures.folder.deletingLastPathComponent().appendingPathComponent("fhirpath")
    static let suiteFile = folder.appendingPathComponent("tests-fhir-r4.xml")
    static let arePresent = FileManager.default.fileExists(atPath: suiteFile.path)
    static let absent: Comment = "needs HL7's FHIRPath suite (tests-fhir-r4.xml) in ../shared/fixtures/fhirpath, which this clone does not have"
    static let exclusionsFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FHIRPathSuiteExclusions.txt")

    @Test(.enabled(if: arePresent, absent))
    func everyTestPassesOrIsListedWithItsReason() throws {
        let cases = try FHIRPathSuiteCase.read(from: Self.suiteFile)
        #expect(cases.count == 711)
        let exclusions = try FHIRPathSuiteExclusions(contentsOf: Self.exclusionsFile)
        let unknown = Set(exclusions.reasons.keys).subtracting(cases.map(\.key))
        #expect(unknown.isEmpty, "listed in FHIRPathSuiteExclusions.txt but not in the suite: \(unknown.sorted())")

        var inputs: [String: FHIRJSON] = [:]
        var passed = 0
        var unexpected: [String] = []
        var nowPassing: [String] = []
        for suiteCase in cases {
            let file = suiteCase.inputFile.replacingOccurrences(of: ".xml", with: ".json")
            if inputs[file] == nil {
                inputs[file] = try FHIRJSON(data: Data(contentsOf: Self.folder.appendingPathComponent("input").appendingPathComponent(file)))
            }
            let outcome = suiteCase.run(on: inputs[file]!)
            let isListed = exclusions.reasons[suiteCase.key] != nil
            switch (outcome, isListed) {
            case (nil, false): passed += 1
            case (nil, true): nowPassing.append(suiteCase.key)
            case (let failure?, false): unexpected.append("\(suiteCase.key): \(suiteCase.expression) — \(failure)")
            case (_?, true): break
            }
        }
        print("FHIRPath R4 suite: \(passed) of \(cases.count) tests pass; \(exclusions.reasons.count) listed with their reasons")
        #expect(unexpected.count == 0, "tests fail that are not listed:\n\(unexpected.joined(separator: "\n"))")
        #expect(nowPassing.count == 0, "listed as failing but pass (take them off the list): \(nowPassing.joined(separator: ", "))")
    }
}

/// The tests the suite holds that do not pass, each with why, from `FHIRPathSuiteExclusions.txt`: one test per
/// line, `group/name: reason` (`group/#N` for the Nth test of a group, counted from 1, where a test has no name);
/// blank lines and lines starting with `#` are ignored.
struct FHIRPathSuiteExclusions {
    var reasons: [String: String] = [:]

    init(contentsOf url: URL) throws {
        for (number, line) in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            guard let colon = text.range(of: ": ") else {
                Issue.record("FHIRPathSuiteExclusions.txt line \(number + 1): expected 'group/name: reason'")
                continue
            }
            let key = String(text[..<colon.lowerBound])
            if reasons[key] != nil { Issue.record("FHIRPathSuiteExclusions.txt line \(number + 1): \(key) is listed twice") }
            reasons[key] = String(text[colon.upperBound...])
        }
    }
}

/// One `<test>` of the suite.
struct FHIRPathSuiteCase {
    /// `group/name`, or `group/#N` for an unnamed test (N counted from 1 within the group).
    var key: String
    var inputFile: String
    var expression = ""
    /// `invalid="…"`: the expression must fail (parse or evaluation), with no result.
    var isInvalid = false
    /// `predicate="true"`: the result is read as a Boolean (whether it has any item).
    var isPredicate = false
    var outputs: [(type: String, text: String)] = []

    /// The moment the suite runs at: its `today()` and `now()` tests compare with 1974 and need only a later day.
    static let now = FHIRPathInstant(date: Date(timeIntervalSince1970: 1_795_000_000), timeZone: TimeZone(identifier: "Pacific/Kiritimati")!)

    /// Why the test fails, or nil when it passes.
    func run(on input: FHIRJSON) -> String? {
        let result: FHIRPathCollection
        do {
            result = try FHIRPathExpression(expression).evaluate(on: input, now: Self.now)
        } catch {
            return isInvalid ? nil : "error: \(error)"
        }
        if isInvalid { return "expected an error, got \(Self.texts(result))" }
        let actual = isPredicate ? [FHIRPathValue.boolean(!result.isEmpty)] : result
        let expected = outputs.map { "\($0.type) \($0.text)" }
        let got = actual.map(Self.typedText)
        return got == expected ? nil : "expected \(expected), got \(got)"
    }

    /// A result item as the suite writes outputs: its type (as the suite names it) and its text.
    static func typedText(_ value: FHIRPathValue) -> String {
        switch value {
        case .boolean(let value): "boolean \(value)"
        case .integer(let value): "integer \(value)"
        case .decimal(let value): "decimal \(value)"
        case .string(let value): "string \(value)"
        case .date(let value): "date \(value.text)"
        case .dateTime(let value): "dateTime \(value.text)"
        case .time(let value): "time \(value.text)"
        case .quantity(let value): "Quantity \(value.value) '\(value.unit)'"
        case .node(let node):
            switch node.json {
            case .bool(let value): "boolean \(value)"
            case .integer(let value): "integer \(value)"
            case .string(let value): "\(suiteType(of: node)) \(value)"
            default: "\(node.fhirType ?? "Element") \(node.json.jsonString())"
            }
        }
    }

    /// The suite's type name for a primitive node holding a string: `code`, `date` and the like where the node's
    /// FHIR type says so, else `string`.
    static func suiteType(of node: FHIRPathNode) -> String {
        switch node.fhirType {
        case "code", "date", "dateTime", "time", "instant": node.fhirType!
        default: "string"
        }
    }

    static func texts(_ collection: FHIRPathCollection) -> [String] { collection.map(typedText) }

    /// Every test of the suite file, in order.
    static func read(from url: URL) throws -> [FHIRPathSuiteCase] {
        let reader = SuiteReader()
        let parser = XMLParser(data: try Data(contentsOf: url))
        parser.delegate = reader
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        return reader.cases
    }

    private final class SuiteReader: NSObject, XMLParserDelegate {
        var cases: [FHIRPathSuiteCase] = []
        var group = ""
        var unnamedIndex = 0
        var seen: Set<String> = []
        var current: FHIRPathSuiteCase?
        var text = ""
        var outputType = ""

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            text = ""
            switch element {
            case "group":
                group = attributes["name"] ?? ""
                unnamedIndex = 0
            case "test":
                unnamedIndex += 1
                var key = attributes["name"].map { "\(group)/\($0)" } ?? "\(group)/#\(unnamedIndex)"
                if !seen.insert(key).inserted { key += "#\(unnamedIndex)" } // a name used twice in a group
                current = FHIRPathSuiteCase(key: key, inputFile: attributes["inputfile"] ?? "patient-example.xml")
                current?.isPredicate = attributes["predicate"] == "true"
            case "expression":
                if attributes["invalid"] != nil { current?.isInvalid = true }
            case "output":
                outputType = attributes["type"] ?? ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            switch element {
            case "expression": current?.expression = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case "output": current?.outputs.append((outputType, text))
            case "test":
                if let current { cases.append(current) }
                current = nil
            default: break
            }
        }
    }
}
