import Foundation
import Testing

/// The templates find view properties through the generated `MustacheChildren.swift`; a property added to a view
/// without regenerating it would render as nothing, so the generator's check must pass.
@Suite struct MustacheChildrenTests {
    @Test func generatedLookupsMatchTheViewStructs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/generate-mustache-children.py").path, "--check"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
