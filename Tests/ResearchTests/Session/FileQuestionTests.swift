import Foundation
import Testing
@testable import Research

@Suite("File questions")
struct FileQuestionTests {
    let clock = TestClock()

    func task() throws -> ResearchTask {
        try ResearchTask(identifier: "photos", steps: [
            Step(identifier: "photo", kind: .question(.file(FileFormat(allowedContentTypes: ["image/*"], maximumBytes: 10)))),
            Build.completion(),
        ])
    }

    func folder() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("file-questions-\(UUID().uuidString)") }

    func files(in folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.contains(".") }.sorted()
    }

    @Test func anAttachedFileIsWrittenAndDescribed() throws {
        let output = folder()
        defer { try? FileManager.default.removeItem(at: output) }
        var session = try TaskSession(task: task(), environment: clock.environment(), files: FolderRunFileStore(folder: output))
        let answer = try session.attachFile(Data("abc".utf8), title: "knee.JPG", contentType: "image/jpeg")
        #expect(answer.byteCount == 3 && answer.title == "knee.JPG" && answer.contentType == "image/jpeg")
        // SHA-256 of "abc", from FIPS 180-2's test vectors.
        #expect(answer.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // The name ends in the first eight hex digits of the content's SHA-256.
        #expect(files(in: output) == ["\(session.taskRunUUID.uuidString)/photo-photo-1-ba7816bf.JPG"])
        try session.goForward()
        try session.goForward()
        let step = try #require(session.result.stepResults.first)
        #expect(step.questionResults.first?.answer == .file(answer))
        #expect(step.results.contains(.file(FileResult(identifier: "photo", fileName: answer.fileName, contentType: "image/jpeg", byteCount: 3))))
    }

    /// The participant's file name only lends its extension, and only a short plain one: a name ending in 240 letters
    /// after a dot, or in `.p/h`, would make a stored name the file system refuses or a path elsewhere.
    @Test(arguments: ["a." + String(repeating: "x", count: 240), "scan.p/h", "scan.jp g", "noextension"])
    func anOddExtensionIsStoredAsBin(_ title: String) throws {
        let output = folder()
        defer { try? FileManager.default.removeItem(at: output) }
        var session = try TaskSession(task: task(), environment: clock.environment(), files: FolderRunFileStore(folder: output))
        let answer = try session.attachFile(Data("abc".utf8), title: title, contentType: "image/jpeg")
        #expect(answer.fileName == "photo-photo-1-ba7816bf.bin")
        #expect(answer.title == title)
        #expect(files(in: output) == ["\(session.taskRunUUID.uuidString)/photo-photo-1-ba7816bf.bin"])
    }

    @Test func aFileTheFormatRefusesIsNotWritten() throws {
        let output = folder()
        defer { try? FileManager.default.removeItem(at: output) }
        var session = try TaskSession(task: task(), environment: clock.environment(), files: FolderRunFileStore(folder: output))
        #expect(throws: TaskSessionError.invalidAnswer(item: "photo", AnswerValidationError(.fileTooLarge, ["size": .text("10 bytes")]))) {
            try session.attachFile(Data(count: 11), title: "big.png", contentType: "image/png")
        }
        #expect(throws: TaskSessionError.invalidAnswer(item: "photo", AnswerValidationError(.fileTypeNotAllowed, ["types": .text("image/*")]))) {
            try session.attachFile(Data("%PDF".utf8), title: "letter.pdf", contentType: "application/pdf")
        }
        #expect(throws: TaskSessionError.invalidAnswer(item: "photo", AnswerValidationError(.fileEmpty))) {
            try session.attachFile(Data(), title: "empty.png", contentType: "image/png")
        }
        #expect(files(in: output).isEmpty)
        #expect(session.answer() == nil)
    }

    /// What a file comes with is the participant's (or their browser's) text: a type that is no media type (a formula
    /// that would start csv-long's `detail` cell, a control character) and a name that reads other than it is stored
    /// are refused, with a problem for the question, and nothing is written.
    @Test func aFileWhoseTypeIsNoMediaTypeOrWhoseNameTurnsItsTextAroundIsNotWritten() throws {
        let output = folder()
        defer { try? FileManager.default.removeItem(at: output) }
        var session = try TaskSession(task: task(), environment: clock.environment(), files: FolderRunFileStore(folder: output))
        for type in [#"=HYPERLINK("https://evil.example","x")"#, "image/png\r\nX-Injected: 1", "image", "", "image/png; q", "image/p\u{202E}ng"] {
            #expect(throws: TaskSessionError.invalidAnswer(item: "photo", AnswerValidationError(.fileTypeInvalid)), "\(type)") {
                try session.attachFile(Data("abc".utf8), title: "knee.png", contentType: type)
            }
        }
        #expect(throws: TaskSessionError.invalidAnswer(item: "photo", AnswerValidationError(.fileNameCharacter, [
            "character": .text("U+202E RIGHT-TO-LEFT OVERRIDE"), "reason": .phrase(.reasonChangesDirection)]))) {
            try session.attachFile(Data("abc".utf8), title: "invoice\u{202E}gnp.exe", contentType: "image/png")
        }
        #expect(throws: TaskSessionError.invalidAnswer(item: "photo", AnswerValidationError(.fileNameCharacter, [
            "character": .text("U+0007"), "reason": .phrase(.reasonControlCharacter)]))) {
            try session.attachFile(Data("abc".utf8), title: "knee\u{7}.png", contentType: "image/png")
        }
        #expect(throws: TaskSessionError.invalidAnswer(item: "photo", AnswerValidationError(.fileNameTooLong, ["count": .integer(255)]))) {
            try session.attachFile(Data("abc".utf8), title: String(repeating: "k", count: 256) + ".png", contentType: "image/png")
        }
        #expect(files(in: output).isEmpty)
        #expect(session.answer() == nil)
        // A media type with parameters, in any case, is one.
        let answer = try session.attachFile(Data("abc".utf8), title: "knee.png", contentType: #"Image/PNG; name="knee scan.png""#)
        #expect(answer.contentType == #"Image/PNG; name="knee scan.png""#)
    }

    @Test func aFileAnswerMustNameAnAttachedFile() throws {
        var session = try TaskSession(task: task(), environment: clock.environment(), files: FolderRunFileStore(folder: folder()))
        let invented = FileAnswer(fileName: "../../etc/passwd", contentType: "image/png", byteCount: 5, sha256: "00")
        #expect(throws: TaskSessionError.notAllowed("'../../etc/passwd' was not attached to 'photo' on this step")) {
            try session.setAnswer(.file(invented))
        }
        #expect(throws: TaskSessionError.self) { try session.setAnswer(text: "/etc/passwd") }
    }

    @Test func replacingClearingAndSkippingDeleteTheFile() throws {
        let output = folder()
        defer { try? FileManager.default.removeItem(at: output) }
        var session = try TaskSession(task: task(), environment: clock.environment(), files: FolderRunFileStore(folder: output))
        try session.attachFile(Data("one".utf8), title: "a.png", contentType: "image/png")
        try session.attachFile(Data("two".utf8), title: "b.gif", contentType: "image/gif")
        #expect(files(in: output).map { ($0 as NSString).pathExtension } == ["gif"])
        try session.setAnswer(nil)
        #expect(files(in: output).isEmpty)
        try session.attachFile(Data("three".utf8), title: "c.png", contentType: "image/png")
        try session.skip()
        #expect(files(in: output).isEmpty)
    }

    /// A file of an earlier session value (a restored run, as on the server) may be what a saved state still refers
    /// to: replacing or skipping it leaves it in place until the run as saved no longer refers to it.
    @Test func filesOfARestoredRunGoOnlyWhenNoSavedStateNeedsThem() throws {
        let output = folder()
        defer { try? FileManager.default.removeItem(at: output) }
        var first = try TaskSession(task: task(), environment: clock.environment(), files: FolderRunFileStore(folder: output))
        let kept = try first.attachFile(Data("one".utf8), title: "a.png", contentType: "image/png")
        let saved = first.restorationData

        // A post that is then refused: the draft replaces the file, and is thrown away.
        var draft = try TaskSession(task: task(), restoring: saved, environment: clock.environment(), files: FolderRunFileStore(folder: output))
        let replacement = try draft.attachFile(Data("two".utf8), title: "b.png", contentType: "image/png")
        #expect(replacement.fileName != kept.fileName)
        #expect(files(in: output).count == 2) // the saved state's file is still there, unchanged
        #expect(try Data(contentsOf: output.appendingPathComponent("\(saved.taskRunUUID.uuidString)/\(kept.fileName)")) == Data("one".utf8))

        // The next post trims the folder to the saved state: the thrown-away draft's file goes, the saved one stays.
        var next = try TaskSession(task: task(), restoring: saved, environment: clock.environment(), files: FolderRunFileStore(folder: output))
        next.removeUnreferencedFiles()
        #expect(files(in: output).map { ($0 as NSString).lastPathComponent } == [kept.fileName])
        // Skipping lets it go; it is deleted once the skipped state is the saved one.
        try next.skip()
        #expect(files(in: output).count == 1)
        next.removeUnreferencedFiles()
        #expect(files(in: output).isEmpty)
    }

    /// Once a run has ended it refers to what its result holds: a file let go on its last visit is trimmed away.
    @Test func anEndedRunKeepsOnlyTheFilesOfItsResult() throws {
        let output = folder()
        defer { try? FileManager.default.removeItem(at: output) }
        var first = try TaskSession(task: task(), environment: clock.environment(), files: FolderRunFileStore(folder: output))
        let replaced = try first.attachFile(Data("one".utf8), title: "a.png", contentType: "image/png")
        var resumed = try TaskSession(task: task(), restoring: first.restorationData, environment: clock.environment(), files: FolderRunFileStore(folder: output))
        let kept = try resumed.attachFile(Data("two".utf8), title: "b.png", contentType: "image/png")
        #expect(files(in: output).count == 2) // the first file belongs to a saved state: not deleted by the resumed session
        while resumed.currentStep != nil { try resumed.goForward() }
        #expect(resumed.referencedFileNames == [kept.fileName])
        resumed.removeUnreferencedFiles()
        #expect(files(in: output).map { ($0 as NSString).lastPathComponent } == [kept.fileName])
        #expect(replaced.fileName != kept.fileName)
    }

    @Test func withoutAnOutputFolderAFileCannotBeKept() throws {
        var session = try TaskSession(task: task(), environment: clock.environment())
        #expect(throws: TaskSessionError.notAllowed("this run has no place for files")) {
            try session.attachFile(Data("abc".utf8), title: "a.png", contentType: "image/png")
        }
    }

    @Test func formatRulesAndMediaTypes() {
        #expect(FileFormat(allowedContentTypes: ["image/*"]).accepts(contentType: "IMAGE/PNG; name=x"))
        #expect(!FileFormat(allowedContentTypes: ["image/*"]).accepts(contentType: "imagery/png"))
        #expect(FileFormat().accepts(contentType: "application/x-anything"))
        let bad = AnswerFormat.file(FileFormat(allowedContentTypes: ["png", "*/*"], maximumBytes: 0)).constructionProblems()
        #expect(bad.map(\.path) == ["maximumBytes", "allowedContentTypes[0]", "allowedContentTypes[1]"])
        #expect(FileFormat.sizeDescription(10 * 1024 * 1024) == "10 MB" && FileFormat.sizeDescription(1536) == "1 KB")
    }
}
