import Foundation
import Interop
import Testing

/// README.md's extension tables list the same extensions as ``FHIRExtensionPolicy``, with the same places, classes
/// and reasons.
@Suite("README: the extension tables")
struct ReadmeExtensionTableTests {
    struct Row: Hashable {
        var url: String
        var places: Set<FHIRExtensionPolicy.Place>
        var alsoAsModifier: Bool
        var treatment: String
        var reason: String
    }

    static func readmeRows() throws -> [Row] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "\n### Extensions\n"))
        let rest = readme[start.upperBound...]
        let end = rest.range(of: "\n### ")?.lowerBound ?? rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        let places = Dictionary(uniqueKeysWithValues: FHIRExtensionPolicy.Place.allCases.map { ($0.rawValue, $0) }
            .map { $0.0 == "questionnaire" ? ("Questionnaire", $0.1) : $0 })
        var rows: [Row] = []
        var inTable = false
        for line in rest[..<end].split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "| Extension | Where | Class | Why |" { inTable = true; continue }
            if inTable, line == "|---|---|---|---|" { continue }
            guard inTable, line.hasPrefix("| ") else { inTable = false; continue }
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            try #require(cells.count == 4, "\(line)")
            let url = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            var where_ = cells[1].components(separatedBy: ", ")
            let modifier = where_.last == "also as modifierExtension"
            if modifier { where_.removeLast() }
            let placeSet = Set(try where_.map { try #require(places[$0], "\(url): unknown place '\($0)'") })
            rows.append(Row(url: url, places: placeSet, alsoAsModifier: modifier, treatment: cells[2],
                            reason: cells[3].replacingOccurrences(of: "\\|", with: "|")))
        }
        return rows
    }

    static func expected(_ entry: FHIRExtensionPolicy.Entry) -> Row {
        var treatment: String
        switch entry.treatment {
        case .supported: treatment = "supported"
        case .acceptedWithoutEffect: treatment = "accepted without effect"
        case .refused: treatment = "refused"
        }
        if let condition = entry.refusedWhen { treatment += "; refused when \(condition.summary)" }
        let reason = entry.canonicalURL.map { "read as `\($0)`" } ?? entry.treatment.reason
        return Row(url: entry.url, places: entry.places, alsoAsModifier: entry.alsoAsModifier, treatment: treatment, reason: reason)
    }

    @Test func theReadmeListsEveryExtensionAsTheImporterTreatsIt() throws {
        let rows = try Self.readmeRows()
        #expect(rows.count == FHIRExtensionPolicy.entries.count)
        let byURL = Dictionary(rows.map { ($0.url, [$0]) }, uniquingKeysWith: +)
        #expect(byURL.values.allSatisfy { $0.count == 1 }, "each extension once in the README")
        for entry in FHIRExtensionPolicy.entries {
            guard let row = byURL[entry.url]?.first else {
                Issue.record("README.md does not list \(entry.url)")
                continue
            }
            #expect(row == Self.expected(entry))
        }
        for row in rows where FHIRExtensionPolicy.entry(for: row.url) == nil {
            Issue.record("README.md lists \(row.url), which FHIRExtensionPolicy does not")
        }
    }
}
