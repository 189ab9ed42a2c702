import Foundation
import Testing
@testable import Research

@Suite("TaskValidator")
struct TaskValidatorTests {
    func problems(_ json: String) -> [String] {
        do {
            _ = try TaskValidator.load(Data(json.utf8))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func validTaskLoads() throws {
        let task = try TaskValidator.load(Data(#"""
        {"identifier": "ok", "steps": [
          {"type": "instruction", "identifier": "intro", "title": "Hello"},
          {"type": "question", "identifier": "pain", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 10}}
        ]}
        """#.utf8))
        #expect(task.steps.map(\.identifier) == ["intro", "pain"])
    }

    @Test func malformedJSONGivesLineAndColumn() {
        let found = problems("{\n  \"identifier\": \"x\",\n  \"steps\": [1, 2,, 3]\n}")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("malformed JSON: line 3, column ") == true)
    }

    @Test func missingAndMistypedFieldsNameTheirPath() {
        #expect(problems(#"{"identifier": "x", "steps": [{"type": "question", "identifier": "a"}]}"#)
                == ["steps[0].answerFormat: is required but missing"])
        #expect(problems(#"{"identifier": "x", "steps": [{"type": "question", "identifier": "a", "answerFormat": {"type": "scale", "minimum": "zero", "maximum": 3}}]}"#)
                .first?.hasPrefix("steps[0].answerFormat.minimum: expected a whole number") == true)
        #expect(problems(#"{"identifier": "x", "steps": [{"type": "poll", "identifier": "a"}]}"#).first?.hasPrefix("steps[0].type:") == true)
    }

    @Test func duplicateIdentifiersAreAllReported() {
        let found = problems(#"""
        {"identifier": "x", "steps": [
          {"type": "instruction", "identifier": "a"},
          {"type": "instruction", "identifier": "a"},
          {"type": "form", "identifier": "f", "items": [
            {"identifier": "i", "answerFormat": {"type": "boolean"}},
            {"identifier": "i", "answerFormat": {"type": "boolean"}}
          ]}
        ]}
        """#)
        #expect(found == [
            "steps[1].identifier: duplicate step identifier 'a' (also steps[0])",
            "steps[2].items[1].identifier: duplicate item identifier 'i' (also items[0])",
        ])
    }

    @Test func formatConstructionProblemsArePathQualified() {
        let found = problems(#"""
        {"identifier": "x", "steps": [
          {"type": "instruction", "identifier": "intro"},
          {"type": "question", "identifier": "a", "answerFormat": {"type": "scale", "minimum": 10, "maximum": 5}}
        ]}
        """#)
        #expect(found.contains { $0.hasPrefix("steps[1].answerFormat.maximum: must be greater than minimum") })
    }

    @Test func unknownDestinationsAndRuleKeys() {
        let found = problems(#"""
        {"identifier": "x", "steps": [
          {"type": "question", "identifier": "a", "answerFormat": {"type": "boolean"}},
          {"type": "instruction", "identifier": "b"}
        ],
         "navigationRules": {"a": {"goTo": "nowhere"}, "ghost": {"goTo": "$end"}, "b": {"rules": [], "otherwise": "lost"}}}
        """#)
        #expect(found == [
            "navigationRules.a.goTo: unknown destination step 'nowhere'",
            "navigationRules.b.rules: a conditional rule needs at least one condition; use \"goTo\" for a direct rule",
            "navigationRules.b.otherwise: unknown destination step 'lost'",
            "navigationRules.ghost: no step has the identifier 'ghost'",
        ])
    }

    @Test func emptyTaskAndReservedIdentifiers() {
        #expect(problems(#"{"identifier": " ", "steps": []}"#) == ["identifier: must not be empty", "steps: a task needs at least one step"])
        #expect(problems(#"{"identifier": "x", "steps": [{"type": "instruction", "identifier": "$end"}]}"#)
                == ["steps[0].identifier: must not start with '$' (reserved for destinations such as $end)"])
    }

    @Test func stepContentRules() {
        let found = problems(#"""
        {"identifier": "x", "steps": [
          {"type": "form", "identifier": "f", "items": [{"sectionTitle": "Only a title"}]},
          {"type": "webContent", "identifier": "w", "html": "  "},
          {"type": "table", "identifier": "t", "items": []},
          {"type": "wait", "identifier": "z", "duration": 0},
          {"type": "requestPermissions", "identifier": "p", "permissions": []},
          {"type": "videoInstruction", "identifier": "v", "videoURL": "", "thumbnailTime": -1},
          {"type": "instruction", "identifier": "i", "bodyItems": [{"style": "bullet"}]}
        ]}
        """#)
        #expect(found == [
            "steps[0].items: a form needs at least one question",
            "steps[1].html: must not be empty",
            "steps[2].items: a table step needs at least one item",
            "steps[3].duration: must be greater than 0 seconds (0.0)",
            "steps[4].permissions: a request-permissions step needs at least one permission",
            "steps[5].videoURL: must not be empty",
            "steps[5].thumbnailTime: must not be negative (-1.0)",
            "steps[6].bodyItems[0]: a body item needs text, detail text or an image",
        ])
    }

    /// The reminder email address is a permission like the others in the JSON: optional, once a task, and a kind or key
    /// that is not one is named with its path.
    @Test func theReminderEmailPermissionIsAskedForOnceATask() throws {
        let task = try TaskValidator.load(Data(#"""
        {"identifier": "onboarding", "steps": [{"type": "requestPermissions", "identifier": "permissions", "permissions": [
          {"identifier": "reminders", "kind": "notifications"},
          {"identifier": "email", "kind": "email", "title": "Reminders by email", "detailText": "If you like."}
        ]}]}
        """#.utf8))
        guard case .requestPermissions(let requests) = task.steps.first?.kind else { Issue.record("not a permissions step"); return }
        #expect(requests.map(\.kind) == [.notifications, .email])
        #expect(requests[1] == PermissionRequest(identifier: "email", kind: .email, title: "Reminders by email", detailText: "If you like."))
        #expect(task.steps[0].isOptional)
        let encoded = String(decoding: try ResearchJSON.encoder(pretty: false).encode(task.steps[0]), as: UTF8.self)
        #expect(encoded.contains(#""kind":"email""#))

        #expect(problems(#"""
        {"identifier": "x", "steps": [
          {"type": "requestPermissions", "identifier": "p", "permissions": [{"identifier": "e", "kind": "email"}, {"identifier": "f", "kind": "email"}]},
          {"type": "requestPermissions", "identifier": "q", "permissions": [{"identifier": "n", "kind": "notifications"}, {"identifier": "g", "kind": "email"}]}
        ]}
        """#) == [
            "steps[0].permissions[1].kind: a task asks for the reminder email address once at most, and permission 'e' of step 'p' asks for it already",
            "steps[1].permissions[1].kind: a task asks for the reminder email address once at most, and permission 'e' of step 'p' asks for it already",
        ])
        #expect(problems(#"{"identifier": "x", "steps": [{"type": "requestPermissions", "identifier": "p", "permissions": [{"identifier": "e", "kind": "e-mail"}]}]}"#)
            .first?.hasPrefix("steps[0].permissions[0].kind: ") == true)
        #expect(problems(#"{"identifier": "x", "steps": [{"type": "requestPermissions", "identifier": "p", "permissions": [{"identifier": "e", "kind": "email", "address": "a@example.org"}]}]}"#)
            .first?.hasPrefix("steps[0].permissions[0].address: ") == true)
    }

    @Test func conditionReferencesMustExistAndFit() throws {
        let steps = [Build.scale("pain"), Build.form("week", items: ["mood"]), Build.boolean("yes"), Build.instruction("info")]
        func check(_ condition: Condition) -> [String] {
            TaskValidator.problems(identifier: "x", steps: steps, navigationRules: [:], skipRules: ["info": condition]).map(\.description)
        }
        #expect(check(.comparison(Build.ref("pain"), .greaterOrEqual, .number(7))) == [])
        #expect(check(.comparison(Build.ref("week", "mood"), .equal, .number(1))) == [])
        #expect(check(.comparison(AnswerReference(task: "other", step: "s"), .equal, .string("x"))) == [])
        #expect(check(.answered(Build.ref("missing"))) == ["skipRules.info: 'missing' is not a step of this task"])
        #expect(check(.answered(Build.ref("week"))).first?.contains("not a question step") == true)
        #expect(check(.answered(Build.ref("week", "nope"))) == ["skipRules.info: step 'week' has no question 'nope'"])
        #expect(check(.answered(Build.ref("info"))) == ["skipRules.info: step 'info' asks no question"])
        #expect(check(.comparison(Build.ref("pain"), .equal, .string("high"))).first?.contains("cannot be compared with") == true)
        #expect(check(.comparison(Build.ref("yes"), .greater, .boolean(true))).first?.contains("cannot be compared with") == true)
        #expect(check(.matches(Build.ref("pain"), pattern: "x")).first?.contains("'matches' needs a text question") == true)
    }
}

@Suite("Unknown keys")
struct UnknownKeyTests {
    @Test func typosAreReportedWithASuggestion() {
        let json = #"""
        {"identifier": "x", "stepz": [], "steps": [
          {"type": "question", "identifier": "a", "optinal": false,
           "answerFormat": {"type": "textChoice", "choices": [{"text": "A", "value": 1, "exclusiv": true, "other": {"placeholdr": "x"}}]}},
          {"type": "form", "identifier": "f", "items": [{"identifier": "i", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 3, "dontKnow": {"txt": "?"}}}]}
        ], "navigationRules": {"a": {"goTo": "f", "when": "x"}}}
        """#
        var found: [String] = []
        do { _ = try TaskValidator.load(Data(json.utf8)) } catch { found = error.problems.map(\.description) }
        // In the order the file has them.
        #expect(found == [
            "stepz: unknown key; StudyKit does not read it (did you mean 'steps'?)",
            "steps[0].optinal: unknown key; StudyKit does not read it (did you mean 'optional'?)",
            "steps[0].answerFormat.choices[0].exclusiv: unknown key; StudyKit does not read it (did you mean 'exclusive'?)",
            "steps[0].answerFormat.choices[0].other.placeholdr: unknown key; StudyKit does not read it (did you mean 'placeholder'?)",
            "steps[1].items[0].answerFormat.dontKnow.txt: unknown key; StudyKit does not read it (did you mean 'text'?)",
            "navigationRules.a.when: unknown key; StudyKit does not read it",
        ])
    }

    @Test func aKeyGivenTwiceIsRefusedWithItsPlaceRatherThanOneValueKept() {
        // JSONDecoder keeps one of the two values; which one differs between readers, so the file is refused.
        let json = "{\"identifier\": \"x\", \"steps\": [\n  {\"type\": \"instruction\", \"identifier\": \"a\", \"identifier\": \"b\"}]}"
        var found: [String] = []
        do { _ = try TaskValidator.load(Data(json.utf8)) } catch { found = error.problems.map(\.description) }
        #expect(found == [#"malformed JSON: line 2, column 46: steps[0]: the member name "identifier" is given twice"#])
    }

    @Test func keysOfOtherStepKindsAreUnknown() {
        let json = #"{"identifier": "x", "steps": [{"type": "instruction", "identifier": "a", "html": "<p>hi</p>"}]}"#
        var found: [String] = []
        do { _ = try TaskValidator.load(Data(json.utf8)) } catch { found = error.problems.map(\.description) }
        #expect(found == ["steps[0].html: unknown key; StudyKit does not read it"])
    }
}
