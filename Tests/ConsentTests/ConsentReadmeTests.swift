import Foundation
import Research
import Testing
@testable import Consent

/// Keeps README.md's "Consent documents" examples loadable.
@Suite struct ConsentReadmeTests {
    /// The package folder: this file is `Tests/ConsentTests/ConsentReadmeTests.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The ```json blocks of the "## Consent documents" section, up to the next level-2 heading.
    static func consentBlocks() throws -> [String] {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "## Consent documents") else { return [] }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        var blocks: [String] = []
        var current: [String]?
        for line in lines[start..<end] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```json" {
                current = []
            } else if let block = current, trimmed == "```" {
                blocks.append(block.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func readmeConsentExamplesLoad() throws {
        let blocks = try Self.consentBlocks()
        #expect(blocks.count == 3, "a document, a task with consent steps and a strings file")
        var document: ConsentDocument?
        var loaded = 0
        for block in blocks {
            let data = Data(block.utf8)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object:\n\(block)")
            if object["sections"] != nil {
                document = try ConsentDocumentValidator.load(data)
            } else if object["steps"] != nil {
                let consentTask = try ConsentTaskLoader.load(taskData: data, document: try #require(document, "the document comes first"),
                                                             context: ConsentFixtures.context())
                #expect(consentTask.consentSteps.count == 3)
            } else {
                let strings = try ConsentStrings.load(data)
                #expect(strings.string(.agree, language: "ja") == "同意します")
            }
            loaded += 1
        }
        #expect(loaded == blocks.count)
        #expect(document?.sections.count == 6)
    }
}
