import Foundation
import Testing
@testable import Research

/// Keeps the task files in `examples/` and the JSON shown in README.md in step with the Codable model.
@Suite struct ExampleDecodingTests {
    /// The package folder: this file is `Tests/ResearchTests/Examples/ExampleDecodingTests.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    static let examplesFolder = packageRoot.appendingPathComponent("examples")

    /// The names of the JSON files in `examples/`, sorted.
    static var exampleFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examplesFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static func loadExample(_ name: String) throws -> ResearchTask {
        let data = try Data(contentsOf: examplesFolder.appendingPathComponent(name))
        return try ResearchJSON.decoder().decode(ResearchTask.self, from: data)
    }

    @Test func examplesFolderHoldsTheDocumentedExamples() {
        let files = Set(Self.exampleFiles)
        for name in ["seed-demo.json", "branching.json", "every-format.json"] {
            #expect(files.contains(name), "examples/\(name) is missing")
        }
    }

    @Test(arguments: exampleFiles)
    func exampleDecodesAndSurvivesARoundTrip(_ name: String) throws {
        let task = try Self.loadExample(name)
        let encoded = try ResearchJSON.encoder().encode(task)
        let decoded = try ResearchJSON.decoder().decode(ResearchTask.self, from: encoded)
        #expect(decoded == task, "examples/\(name) changes when encoded and decoded again")
    }

    @Test func seedDemoFollowsTheTalk() throws {
        let task = try Self.loadExample("seed-demo.json")
        #expect(task.identifier == "seed-demo")
        #expect(task.steps.first?.kind == .instruction)
        #expect(task.steps.last?.kind == .completion)
        let stairs = try #require(task.step(withIdentifier: "stairs"))
        #expect(stairs.kind.type == .question)
        #expect(stairs.answerFormat(forItem: nil)?.type == .boolean)
        #expect(!stairs.isOptional)
        let forms = task.steps.filter { $0.kind.type == .form }
        #expect(forms.count == 2)
        #expect(forms.map { $0.questions.map(\.format.type) } == [Array(repeating: .textChoice, count: 4), Array(repeating: .scale, count: 4)])
        let numeric = task.steps.flatMap(\.questions).filter { $0.format.type == .numeric }
        #expect(numeric.count == 1)
    }

    @Test func everyFormatUsesEveryAnswerFormatAndStepKind() throws {
        let task = try Self.loadExample("every-format.json")
        #expect(task.identifier == "every-format")

        let formats = Set(task.steps.flatMap(\.questions).map(\.format.type))
        let missingFormats = Set(AnswerFormatType.allCases).subtracting(formats)
        #expect(missingFormats.isEmpty, "answer formats not used: \(missingFormats.map(\.rawValue).sorted())")

        let kinds = Set(task.steps.map(\.kind.type))
        // Active steps come from the ActiveTasks catalogue, which a study names in study.yaml; survey files may not hold them.
        let missingKinds = Set(StepType.allCases).subtracting(kinds).subtracting([.active])
        #expect(missingKinds.isEmpty, "step kinds not used: \(missingKinds.map(\.rawValue).sorted())")

        let withDontKnow = task.steps.flatMap(\.questions).filter { $0.format.dontKnow != nil }
        #expect(withDontKnow.count >= 2)

        let forms = task.steps.compactMap { step -> FormContent? in
            if case .form(let form) = step.kind { return form }
            return nil
        }
        #expect(forms.contains { $0.cardStyle && $0.items.contains(where: \.isSectionTitle) })
        #expect(task.steps.contains { $0.learnMore != nil })
    }

    // MARK: README

    /// The text of README.md's "Task JSON" section: from its heading to the next level-2 heading.
    static func taskJSONSection() throws -> String {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "## Task JSON") else { return "" }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    /// The contents of the ```json blocks in `markdown`, with the line each starts on.
    static func jsonBlocks(in markdown: String) -> [(line: Int, text: String)] {
        var blocks: [(line: Int, text: String)] = []
        var current: [String]?
        var startLine = 0
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```json" {
                current = []
                startLine = index + 1
            } else if current != nil, trimmed == "```" {
                blocks.append((startLine, current!.joined(separator: "\n")))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test func readmeTaskJSONBlocksAreValidJSON() throws {
        let section = try Self.taskJSONSection()
        #expect(!section.isEmpty, "README.md has no \"## Task JSON\" section")
        let blocks = Self.jsonBlocks(in: section)
        #expect(blocks.count >= 20, "expected a JSON example for every step kind and answer format")
        for block in blocks {
            do {
                _ = try JSONSerialization.jsonObject(with: Data(block.text.utf8), options: [.fragmentsAllowed])
            } catch {
                Issue.record("README.md Task JSON block at section line \(block.line) is not valid JSON: \(error)\n\(block.text)")
            }
        }
    }

    /// Decodes each README block whose shape is recognisable with the model type it shows, so the documented
    /// keys stay the ones the code reads.
    @Test func readmeTaskJSONBlocksDecodeAsTheTypesTheyShow() throws {
        let decoder = ResearchJSON.decoder()
        for block in Self.jsonBlocks(in: try Self.taskJSONSection()) {
            let data = Data(block.text.utf8)
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            let decode: () throws -> Void
            if object["steps"] != nil {
                decode = { _ = try decoder.decode(ResearchTask.self, from: data) }
            } else if object["taskRunUUID"] != nil {
                decode = { _ = try decoder.decode(TaskResult.self, from: data) }
            } else if object["results"] != nil, object["startDate"] != nil {
                decode = { _ = try decoder.decode(StepResult.self, from: data) }
            } else if object["kind"] != nil, object["identifier"] != nil {
                decode = { _ = try decoder.decode(ResultItem.self, from: data) }
            } else if object["type"] != nil, object["identifier"] != nil {
                decode = { _ = try decoder.decode(Step.self, from: data) }
            } else if object["type"] != nil {
                decode = { _ = try decoder.decode(AnswerFormat.self, from: data) }
            } else if object["goTo"] != nil || object["rules"] != nil {
                decode = { _ = try decoder.decode(NavigationRule.self, from: data) }
            } else {
                continue
            }
            do {
                try decode()
            } catch {
                Issue.record(error, "README.md Task JSON block at section line \(block.line) does not decode:\n\(block.text)")
            }
        }
    }
}
