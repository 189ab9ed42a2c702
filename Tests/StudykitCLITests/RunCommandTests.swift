import Foundation
import Testing

@Suite("studykit run")
struct RunCommandTests {
    static let task = #"""
    {"identifier": "cli-demo", "title": "CLI demo", "steps": [
      {"type": "instruction", "identifier": "intro", "title": "Welcome", "bodyItems": [{"text": "It takes a minute", "style": "bullet"}]},
      {"type": "question", "identifier": "stairs", "text": "Does your health limit you on stairs?", "optional": false,
       "answerFormat": {"type": "boolean"}},
      {"type": "question", "identifier": "flights", "text": "How many flights did you climb?",
       "answerFormat": {"type": "numeric", "style": "integer", "unit": "flights", "minimum": 0, "maximum": 100}},
      {"type": "form", "identifier": "week", "text": "Over the last two weeks…", "items": [
        {"identifier": "interest", "text": "Little interest", "answerFormat": {"type": "textChoice", "choices": [
          {"text": "Not at all", "value": 0}, {"text": "Several days", "value": 1}]}},
        {"identifier": "mood", "text": "Feeling down", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 3}}
      ]},
      {"type": "completion", "identifier": "done", "title": "Thank you"}
    ]}
    """#

    func withTask(_ body: (URL) throws -> Void) throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.task.write(to: folder.appendingPathComponent("task.json"), atomically: true, encoding: .utf8)
        try body(folder)
    }

    func result(in folder: URL, _ name: String = "r.json") throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func completesAndWritesTheResult() throws {
        try withTask { folder in
            let output = try StudykitProcess.run(["run", "task.json", "--output", "r.json"], input: "\nyes\n12\n2\n3\n\n", in: folder)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("Step 1 of 3"))
            #expect(output.stdout.contains("Step 3 of 3"))
            #expect(output.stdout.contains("• It takes a minute"))
            #expect(output.stdout.contains("1) Not at all"))
            #expect(output.stdout.contains("Result written to r.json"))
            let result = try result(in: folder)
            #expect(result["identifier"] as? String == "cli-demo")
            #expect(UUID(uuidString: result["taskRunUUID"] as? String ?? "") != nil)
            #expect(result["startDate"] is String && result["endDate"] is String)
            let steps = try #require(result["stepResults"] as? [[String: Any]])
            #expect(steps.map { $0["identifier"] as? String } == ["intro", "stairs", "flights", "week", "done"])
            let stairs = try #require((steps[1]["results"] as? [[String: Any]])?.first)
            #expect(stairs["type"] as? String == "boolean")
            #expect(stairs["answer"] as? Bool == true)
            let flights = try #require((steps[2]["results"] as? [[String: Any]])?.first)
            #expect(flights["answer"] as? Int == 12)
            #expect(flights["unit"] as? String == "flights")
            let week = try #require(steps[3]["results"] as? [[String: Any]])
            #expect(week[0]["answer"] as? [Int] == [1])
            #expect(week[1]["answer"] as? Int == 3)
        }
    }

    @Test func aLetterInANumericQuestionIsAskedAgainWithTheFormatsMessage() throws {
        try withTask { folder in
            let output = try StudykitProcess.run(["run", "task.json", "--output", "r.json"], input: "\nno\nabc\n150\n7\nskip\n\n", in: folder)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("! Enter a whole number."))
            #expect(output.stdout.contains("! Enter a number from 0 to 100."))
            let steps = try #require(try result(in: folder)["stepResults"] as? [[String: Any]])
            #expect((steps[2]["results"] as? [[String: Any]])?.first?["answer"] as? Int == 7)
            #expect(steps[3]["skipped"] as? Bool == true)
        }
    }

    @Test func backShowsTheEarlierAnswer() throws {
        try withTask { folder in
            let output = try StudykitProcess.run(["run", "task.json", "--output", "r.json"], input: "\nyes\nback\n\n5\nskip\n\n", in: folder)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("[current: Yes — Enter keeps it]"))
            let steps = try #require(try result(in: folder)["stepResults"] as? [[String: Any]])
            #expect(steps.map { $0["identifier"] as? String } == ["intro", "stairs", "flights", "week", "done"])
            #expect((steps[1]["results"] as? [[String: Any]])?.first?["answer"] as? Bool == true)
        }
    }

    @Test func saveThenRestoreResumesOnTheSameStep() throws {
        try withTask { folder in
            let first = try StudykitProcess.run(["run", "task.json", "--output", "r.json"], input: "\nyes\n4\nsave\n", in: folder)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("Saved. Resume with: studykit run task.json --output r.json --restore r.restore.json"))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("r.json").path))
            let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("r.restore.json"))) as? [String: Any])

            let second = try StudykitProcess.run(["run", "task.json", "--output", "r.json", "--restore", "r.restore.json"],
                                                 input: "back\n\n1\n2\n\n", in: folder)
            #expect(second.status == 0, "\(second.stderr)")
            // Resumed on the form (the step where it was saved), not the first step.
            #expect(!second.stdout.contains("Welcome"))
            #expect(second.stdout.hasPrefix("CLI demo") && second.stdout.contains("Little interest"))
            // Going back shows the answer given before saving.
            #expect(second.stdout.contains("[current: 4 flights — Enter keeps it]"))
            let result = try result(in: folder)
            #expect(result["taskRunUUID"] as? String == saved["taskRunUUID"] as? String)
            let steps = try #require(result["stepResults"] as? [[String: Any]])
            #expect((steps[1]["results"] as? [[String: Any]])?.first?["answer"] as? Bool == true)
            #expect((steps[2]["results"] as? [[String: Any]])?.first?["answer"] as? Int == 4)
        }
    }

    @Test func quitDiscardsAndEndOfInputFails() throws {
        try withTask { folder in
            let quit = try StudykitProcess.run(["run", "task.json", "--output", "r.json"], input: "\nquit\n", in: folder)
            #expect(quit.status == 0)
            #expect(quit.stdout.contains("Discarded; nothing was written."))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("r.json").path))

            let ended = try StudykitProcess.run(["run", "task.json", "--output", "r.json"], input: "\nyes\n", in: folder)
            #expect(ended.status == 1)
            #expect(ended.stderr.contains("input ended before the task was finished"))
        }
    }

    @Test func skipIsRefusedOnARequiredStep() throws {
        try withTask { folder in
            let output = try StudykitProcess.run(["run", "task.json", "--output", "r.json"], input: "\nskip\nno\nskip\nskip\n\n", in: folder)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("step 'stairs' is required and cannot be skipped"))
        }
    }

    /// A terminal has no server to mail from: the reminder email address is left to the web, and recorded as unavailable.
    @Test func theReminderEmailAddressIsLeftToTheWeb() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"""
        {"identifier": "permissions-demo", "steps": [
          {"type": "requestPermissions", "identifier": "permissions", "permissions": [
            {"identifier": "reminders", "kind": "notifications", "title": "Reminders"},
            {"identifier": "email", "kind": "email", "title": "Reminders by email"}]},
          {"type": "completion", "identifier": "done", "title": "Thank you"}
        ]}
        """#.write(to: folder.appendingPathComponent("task.json"), atomically: true, encoding: .utf8)
        let output = try StudykitProcess.run(["run", "task.json", "--output", "r.json"], input: "yes\n\n", in: folder)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Reminders by email\n  Email reminders are set up on the web (the study's Settings → Reminders); a terminal run asks for no address."))
        let steps = try #require(try result(in: folder)["stepResults"] as? [[String: Any]])
        let results = try #require(steps.first?["results"] as? [[String: Any]])
        #expect(results.map { $0["identifier"] as? String } == ["reminders", "email"])
        #expect(results.map { $0["outcome"] as? String } == ["granted", "unavailable"])
        #expect(results.map { $0["permission"] as? String } == ["notifications", "email"])
    }
}
