import Foundation
import Testing
@testable import Research

@Suite("TaskSession")
struct TaskSessionTests {
    let clock = TestClock()

    func linearTask() throws -> ResearchTask {
        try ResearchTask(identifier: "linear", steps: [
            Build.instruction("intro"), Build.boolean("stairs", optional: false), Build.scale("pain"),
            Build.form("week", items: ["interest", "mood", "sleep"], required: ["mood"]), Build.completion(),
        ])
    }

    @Test func startsARunWithInjectedUUIDAndClock() throws {
        let session = try TaskSession(task: linearTask(), environment: clock.environment())
        #expect(session.taskRunUUID == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
        #expect(session.startDate == clock.now)
        #expect(session.currentStep?.identifier == "intro")
        #expect(session.finishReason == nil)
    }

    @Test func emptyTaskIsRefused() throws {
        #expect(throws: TaskSessionError.emptyTask("empty")) {
            try TaskSession(task: ResearchTask(identifier: "empty", steps: []), environment: clock.environment())
        }
    }

    @Test func progressLeavesOutLeadingInstructionAndTrailingCompletion() throws {
        var session = try TaskSession(task: linearTask(), environment: clock.environment())
        #expect(session.progress == nil)
        try session.goForward()
        #expect(session.progress == TaskProgress(current: 1, total: 3))
        try session.setAnswer(.boolean(true))
        try session.goForward()
        #expect(session.progress == TaskProgress(current: 2, total: 3))
        try session.skip()
        #expect(session.progress == TaskProgress(current: 3, total: 3))
        try session.setAnswer(.number(1), for: "mood")
        try session.goForward()
        #expect(session.currentStep?.kind == .completion)
        #expect(session.progress == nil)
    }

    @Test func progressCountsEveryStepWithoutInstructionOrCompletion() throws {
        let task = try ResearchTask(identifier: "t", steps: [Build.scale("a"), Build.scale("b")])
        let session = try TaskSession(task: task, environment: clock.environment())
        #expect(session.progress == TaskProgress(current: 1, total: 2))
    }

    @Test func nextNeedsTheRequiredAnswers() throws {
        var session = try TaskSession(task: linearTask(), environment: clock.environment())
        try session.goForward()
        #expect(!session.canGoForward)
        #expect(session.missingAnswers == ["stairs"])
        #expect(throws: TaskSessionError.missingAnswers(["stairs"])) { try session.goForward() }
        try session.setAnswer(.boolean(false))
        #expect(session.canGoForward)
        try session.goForward()
        // An optional question step still needs an answer for Next; Skip leaves it empty.
        #expect(!session.canGoForward)
        try session.setAnswer(.number(4))
        try session.goForward()
        // A form needs only its required items.
        #expect(session.missingAnswers == ["mood"])
        try session.setAnswer(.number(2), for: "mood")
        #expect(session.canGoForward)
    }

    @Test func invalidAnswersAreRefusedAndNotStored() throws {
        var session = try TaskSession(task: linearTask(), environment: clock.environment())
        try session.goForward()
        #expect(throws: TaskSessionError.self) { try session.setAnswer(.text("yes")) }
        #expect(session.answer() == nil)
        #expect(throws: TaskSessionError.unknownItem("nope")) { try session.setAnswer(.boolean(true), for: "nope") }
    }

    @Test func skipIsOnlyForOptionalStepsAndClearsEveryFormItem() throws {
        var session = try TaskSession(task: linearTask(), environment: clock.environment())
        try session.goForward()
        #expect(!session.canSkip)
        #expect(throws: TaskSessionError.notOptional("stairs")) { try session.skip() }
        try session.setAnswer(.boolean(true))
        try session.goForward()
        try session.setAnswer(.number(3))
        try session.goForward()
        try session.setAnswer(.number(1), for: "interest")
        try session.setAnswer(.number(2), for: "mood")
        try session.skip()
        let week = try #require(session.result.stepResult("week"))
        #expect(week.skipped)
        #expect(week.questionResults.map(\.identifier) == ["interest", "mood", "sleep"])
        #expect(week.questionResults.allSatisfy { $0.answer == nil })
        // Going back to the skipped form shows it empty.
        try session.goBack()
        #expect(session.answer(for: "interest") == nil)
    }

    @Test func backKeepsAnswersForPrefilling() throws {
        var session = try TaskSession(task: linearTask(), environment: clock.environment())
        #expect(!session.canGoBack)
        #expect(throws: TaskSessionError.cannotGoBack) { try session.goBack() }
        try session.goForward()
        try session.setAnswer(.boolean(true))
        try session.goForward()
        try session.setAnswer(.number(6))
        try session.goBack()
        #expect(session.currentStep?.identifier == "stairs")
        #expect(session.answer() == .boolean(true))
        try session.goForward()
        // The answer typed on the step left with Back is shown again.
        #expect(session.currentStep?.identifier == "pain")
        #expect(session.answer() == .number(6))
    }

    @Test func resultListsVisitedStepsInOrderWithTypedAnswersAndDates() throws {
        var session = try TaskSession(task: linearTask(), environment: clock.environment(), device: "test")
        clock.advance(by: 5)
        try session.goForward()
        try session.setAnswer(.boolean(true))
        clock.advance(by: 7)
        try session.goForward()
        try session.setAnswer(.number(8))
        try session.goForward()
        try session.setAnswer(.number(2), for: "mood")
        try session.goForward()
        try session.goForward()
        #expect(session.finishReason == .completed)
        let result = session.result
        #expect(result.identifier == "linear")
        #expect(result.taskRunUUID == session.taskRunUUID)
        #expect(result.device == "test")
        #expect(result.stepResults.map(\.identifier) == ["intro", "stairs", "pain", "week", "done"])
        #expect(result.stepResults[0].endDate == clock.now - 7)
        #expect(result.stepResults[1].startDate == clock.now - 7)
        #expect(result.stepResults[1].endDate == clock.now)
        #expect(result.answer(step: "stairs") == .boolean(true))
        #expect(result.stepResult("pain")?.questionResult("pain")?.type == .scale)
        #expect(result.answer(step: "week", item: "mood") == .number(2))
        #expect(result.answer(step: "week", item: "sleep") == nil)
        #expect(result.endDate == clock.now)
    }

    @Test func saveAndRestoreResumesOnTheSameStepWithAnswers() throws {
        var session = try TaskSession(task: linearTask(), environment: clock.environment())
        try session.goForward()
        try session.setAnswer(.boolean(false))
        try session.goForward()
        try session.setAnswer(.number(9))
        let data = try session.save()
        #expect(session.finishReason == .saved)
        #expect(session.currentStep == nil)
        #expect(throws: TaskSessionError.finished(.saved)) { try session.goForward() }

        let json = try ResearchJSON.encoder().encode(data)
        let decoded = try ResearchJSON.decoder().decode(TaskRestorationData.self, from: json)
        #expect(decoded == data)
        var restored = try TaskSession(task: linearTask(), restoring: decoded, environment: clock.environment())
        #expect(restored.taskRunUUID == session.taskRunUUID)
        #expect(restored.currentStep?.identifier == "pain")
        #expect(restored.answer() == .number(9))
        try restored.goBack()
        #expect(restored.answer() == .boolean(false))
    }

    /// Restoration data leaves a visit's empty parts out, and reads data written with them.
    @Test func restorationDataLeavesEmptyPartsOutAndReadsThemIn() throws {
        var session = try TaskSession(task: linearTask(), environment: clock.environment())
        try session.goForward()
        try session.setAnswer(.boolean(true))
        let restoration = session.restorationData
        let json = String(decoding: try ResearchJSON.encoder(pretty: false).encode(restoration), as: UTF8.self)
        #expect(!json.contains("\"files\"") && !json.contains("\"permissions\"") && !json.contains("\"skipped\""))
        #expect(json.contains("\"answers\""))
        #expect(try ResearchJSON.decoder().decode(TaskRestorationData.self, from: Data(json.utf8)) == restoration)
        // As written before: every part present, empty or not.
        let full = #"{"formatVersion":1,"taskIdentifier":"\#(restoration.taskIdentifier)","taskRunUUID":"\#(restoration.taskRunUUID)","#
            + #""startDate":"2026-03-05T08:40:00.000Z","setAside":{},"path":[{"stepIdentifier":"intro","startDate":"2026-03-05T08:40:00.000Z","#
            + #""endDate":"2026-03-05T08:40:00.000Z","answers":{},"permissions":{},"files":[],"skipped":false}]}"#
        let old = try ResearchJSON.decoder().decode(TaskRestorationData.self, from: Data(full.utf8))
        #expect(old.path.count == 1 && old.path[0].answers.isEmpty && old.path[0].files.isEmpty && !old.path[0].skipped)
    }

    @Test func restoringIntoAnotherTaskIsAnError() throws {
        var session = try TaskSession(task: linearTask(), environment: clock.environment())
        let data = try session.save()
        let other = try ResearchTask(identifier: "other", steps: [Build.scale("pain")])
        #expect(throws: TaskSessionError.restorationMismatch("the saved run belongs to task 'linear', not 'other'")) {
            try TaskSession(task: other, restoring: data, environment: clock.environment())
        }
        // Same identifier, but the saved steps no longer exist.
        let changed = try ResearchTask(identifier: "linear", steps: [Build.scale("pain")])
        #expect(throws: TaskSessionError.self) { try TaskSession(task: changed, restoring: data, environment: clock.environment()) }
    }

    @Test func finishReasons() throws {
        var discarded = try TaskSession(task: linearTask(), environment: clock.environment())
        discarded.discard()
        #expect(discarded.finishReason == .discarded)

        var failed = try TaskSession(task: linearTask(), environment: clock.environment())
        failed.fail()
        #expect(failed.finishReason == .failed)

        var early = try TaskSession(task: ResearchTask(identifier: "e", steps: [
            Step(identifier: "a", kind: .instruction, earlyTermination: EarlyTermination(buttonText: "I can't do this")),
            Build.scale("b"),
        ]), environment: clock.environment())
        try early.terminateEarly()
        #expect(early.finishReason == .earlyTermination)
        #expect(early.result.stepResults.map(\.identifier) == ["a"])

        var plain = try TaskSession(task: linearTask(), environment: clock.environment())
        #expect(throws: TaskSessionError.self) { try plain.terminateEarly() }
    }

    @Test func aRunsFilesAreOwnerOnlyWhateverTheUmask() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try TaskSession(task: linearTask(), environment: clock.environment(), files: FolderRunFileStore(folder: folder))
        let file = try session.recordFile(Data("knee".utf8), identifier: "photo", fileExtension: "jpg", contentType: "image/jpeg")
        let runFolder = folder.appendingPathComponent(session.taskRunUUID.uuidString)
        let attributes = try FileManager.default.attributesOfItem(atPath: runFolder.appendingPathComponent(file.fileName).path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: runFolder.path)[.posixPermissions] as? Int == 0o700)
    }

    /// The session names files and lets them go; where they are kept is the injected store's business, so a store in
    /// memory sees every write and removal, and nothing reaches the file system.
    @Test func theSessionKeepsFilesOnlyThroughItsStore() throws {
        final class MemoryFiles: RunFileStore, @unchecked Sendable {
            let lock = NSLock()
            var stored: [String: Data] = [:]
            func location(ofRun run: UUID) -> String? { nil }
            func write(_ data: Data, named name: String, ofRun run: UUID) throws -> Bool {
                lock.withLock { stored.updateValue(data, forKey: name) != nil }
            }
            func remove(named name: String, ofRun run: UUID) { lock.withLock { _ = stored.removeValue(forKey: name) } }
            func fileNames(ofRun run: UUID) -> [String] { lock.withLock { Array(stored.keys) } }
        }
        let files = MemoryFiles()
        var session = try TaskSession(task: linearTask(), environment: clock.environment(), files: files)
        let first = try session.recordFile(Data("one".utf8), identifier: "audio", fileExtension: "txt", contentType: "text/plain")
        #expect(files.stored == [first.fileName: Data("one".utf8)])
        // Recorded again on the same visit: the earlier file, written by this session value, is let go at once.
        let second = try session.recordFile(Data("two".utf8), identifier: "audio", fileExtension: "txt", contentType: "text/plain")
        #expect(files.stored == [second.fileName: Data("two".utf8)])
        // A file nothing refers to (left by a refused post) goes when the caller trims the run.
        _ = try files.write(Data("stray".utf8), named: "stray.txt", ofRun: session.taskRunUUID)
        session.removeUnreferencedFiles()
        #expect(Set(files.stored.keys) == [second.fileName])
        #expect(session.result.outputDirectory == nil)
    }

    @Test func filesGoToTheRunsOutputDirectory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try TaskSession(task: linearTask(), environment: clock.environment(), files: FolderRunFileStore(folder: folder))
        let file = try session.recordFile(Data("hello".utf8), identifier: "audio", fileExtension: "txt", contentType: "text/plain")
        let written = folder.appendingPathComponent(session.taskRunUUID.uuidString).appendingPathComponent(file.fileName)
        #expect(try String(contentsOf: written, encoding: .utf8) == "hello")
        #expect(session.result.stepResults[0].results == [.file(file)])
        #expect(session.result.outputDirectory == folder.appendingPathComponent(session.taskRunUUID.uuidString).path)

        // Identifiers that clean to the same characters still get their own files.
        let spaced = try session.recordFile(Data("a".utf8), identifier: "a b", fileExtension: "txt", contentType: "text/plain")
        let underscored = try session.recordFile(Data("b".utf8), identifier: "a_b", fileExtension: "txt", contentType: "text/plain")
        #expect(spaced.fileName != underscored.fileName)
        #expect(underscored.fileName == "intro-a_b-1-3e23e816.txt") // 3e23e816: SHA-256 of "b"

        // Skipping the step clears its files from the result and the folder.
        try session.goForward()
        try session.setAnswer(.boolean(true))
        try session.goForward()
        let voice = try session.recordFile(Data("x".utf8), identifier: "voice", fileExtension: "wav", contentType: "audio/wav")
        let voicePath = folder.appendingPathComponent(session.taskRunUUID.uuidString).appendingPathComponent(voice.fileName).path
        #expect(FileManager.default.fileExists(atPath: voicePath))
        try session.skip()
        #expect(!FileManager.default.fileExists(atPath: voicePath))
        #expect(session.result.stepResult("pain")?.results.contains(.file(voice)) == false)

        var noFolder = try TaskSession(task: linearTask(), environment: clock.environment())
        #expect(throws: TaskSessionError.self) {
            try noFolder.recordFile(Data(), identifier: "x", fileExtension: "bin", contentType: "application/octet-stream")
        }
    }

    @Test func signatureStepNeedsAValidSignature() throws {
        let task = try ResearchTask(identifier: "sig", steps: [Step(identifier: "sign", kind: .signature(SignatureContent()), isOptional: false)])
        var session = try TaskSession(task: task, environment: clock.environment())
        #expect(session.missingAnswers == ["signature"])
        #expect(throws: TaskSessionError.self) { try session.sign(Signature(width: 100, height: 50, strokes: [])) }
        #expect(throws: TaskSessionError.self) {
            try session.sign(Signature(width: 100, height: 50, strokes: [[SignaturePoint(x: 150, y: 10, t: 0)]]))
        }
        let drawing = Signature(width: 100, height: 50, strokes: [[SignaturePoint(x: 1, y: 2, t: 0), SignaturePoint(x: 40, y: 30, t: 120)]])
        try session.sign(drawing)
        try session.goForward()
        let result = session.result
        #expect(result.stepResults[0].results == [.signature(SignatureResult(identifier: "sign", signature: drawing, signedDate: clock.now))])
    }

    @Test func aTypedNameIsASignatureAndABlankOneIsNot() throws {
        let task = try ResearchTask(identifier: "sig", steps: [Step(identifier: "sign", kind: .signature(SignatureContent()), isOptional: false)])
        var session = try TaskSession(task: task, environment: clock.environment())
        #expect(throws: TaskSessionError.self) { try session.sign(Signature(width: 100, height: 50, strokes: [], typedName: "  ")) }
        let typed = Signature(width: 100, height: 50, strokes: [], typedName: "Hanako Yamada")
        try session.sign(typed)
        #expect(session.signature?.signature.typedName == "Hanako Yamada")
        let json = String(decoding: try JSONEncoder().encode(typed), as: UTF8.self)
        #expect(json.contains("\"typedName\":\"Hanako Yamada\""))
        let drawn = String(decoding: try JSONEncoder().encode(Signature(width: 1, height: 1, strokes: [])), as: UTF8.self)
        #expect(!drawn.contains("typedName"))
    }

    @Test func exposesTheInjectedTimeZone() throws {
        let session = try TaskSession(task: linearTask(), environment: clock.environment(timeZone: TimeZone(identifier: "Europe/Madrid")!))
        #expect(session.timeZone.identifier == "Europe/Madrid")
    }

    @Test func permissionOutcomesAreRecorded() throws {
        let task = try ResearchTask(identifier: "perm", steps: [Step(identifier: "ask", kind: .requestPermissions([
            PermissionRequest(identifier: "notify", kind: .notifications), PermissionRequest(identifier: "where", kind: .location),
        ]))])
        var session = try TaskSession(task: task, environment: clock.environment())
        try session.setPermission("notify", outcome: .granted)
        #expect(throws: TaskSessionError.unknownItem("camera")) { try session.setPermission("camera", outcome: .granted) }
        try session.goForward()
        #expect(session.result.stepResults[0].results == [
            .permission(PermissionResult(identifier: "notify", permission: .notifications, outcome: .granted)),
            .permission(PermissionResult(identifier: "where", permission: .location, outcome: .notDetermined)),
        ])
    }
}
