import Foundation
import Research
import Testing
@testable import StudyWeb

@Suite("Step pages")
struct StepPageRendererTests {
    @Test func everyStepOfTheExampleRendersAsAWellFormedPageUnderTheBudget() throws {
        var session = try Fixtures.session()
        var kinds: Set<StepType> = []
        var formats: Set<AnswerFormatType> = []
        var rendered: [String] = []
        while let step = session.currentStep {
            let html = try Fixtures.render(session)
            let problems = PageChecks.problems(in: html)
            #expect(problems.isEmpty, "step \(step.identifier): \(problems)")
            #expect(html.contains("value=\"\(step.identifier)\""), "step \(step.identifier) names itself in the form")
            for question in step.questions {
                formats.insert(question.format.type)
            }
            kinds.insert(step.kind.type)
            rendered.append(step.identifier)
            try Fixtures.advance(&session)
        }
        // Active steps come from the ActiveTasks catalogue, never from a survey file: `activeStepPagesRunTheirModule` renders one.
        #expect(kinds == Set(StepType.allCases).subtracting([.active]), "step kinds rendered: \(kinds)")
        #expect(formats == Set(AnswerFormatType.allCases), "formats rendered: \(formats)")
        #expect(rendered.count == (try Fixtures.everyFormat()).steps.count)
    }
}

@Suite("Step page content")
struct StepPageContentTests {
    @Test func activeStepPagesRunTheirModule() throws {
        let task = try ResearchTask(identifier: "tap", steps: [
            Step(identifier: "tapping.right", kind: .active(ActiveStepContent(module: "tapping", duration: 20,
                                                                              settings: ["targets": .number(2), "hand": .text("right")])),
                 title: "Right hand", text: "Tap the two buttons in turn.", isOptional: false),
            Step(identifier: "conclusion", kind: .completion, title: "All done"),
        ])
        let session = try TaskSession(task: task)
        let html = try Fixtures.render(session)
        #expect(PageChecks.problems(in: html).isEmpty, "\(PageChecks.problems(in: html))")
        #expect(html.contains("data-active=\"tapping\"") && html.contains("data-duration=\"20\""))
        #expect(html.contains("/active/tapping.js?v="), "the module's script is linked")
        #expect(html.contains("<input type=\"hidden\" name=\"samples\" value=\"\">"))
        #expect(html.contains("&quot;targets&quot;:2"), "the settings are in the page, escaped")
        #expect(html.contains("<noscript>"), "a page without JavaScript says what it needs")
        #expect(!html.contains("value=\"skip\""), "a required active step has no Skip")
    }

    @Test func taskAndParticipantTextIsEscaped() throws {
        let evil = "<script>alert(1)</script>"
        let task = try ResearchTask(identifier: "evil", steps: [
            Step(identifier: "q\"><script>x()</script>", kind: .question(.textChoice(TextChoiceFormat(choices: [
                TextChoice(text: evil, value: "a", detailText: "<b>bold</b>"),
                TextChoice(text: "Other", value: "o", other: OtherChoice(placeholder: "\"><img src=x onerror=alert(2)>")),
            ]))), title: evil, text: "Pick <i>one</i>", footnote: "&copy;"),
            Step(identifier: "words", kind: .question(.text(TextFormat(multipleLines: true))), title: "Words"),
            Step(identifier: "end", kind: .completion, title: "Thanks"),
        ])
        var session = try Fixtures.session(task)
        var html = try Fixtures.render(session)
        #expect(!html.contains("<script>alert(1)"))
        #expect(!html.contains("<script>x()"))
        #expect(!html.contains("<b>bold</b>"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<i>one</i>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("value=\"q&quot;&gt;&lt;script&gt;x()&lt;/script&gt;\""))
        #expect(html.contains("&amp;copy;"))
        #expect(PageChecks.problems(in: html).isEmpty)

        try Fixtures.post(&session, "next", ["q0": ["2"], "q0-other2": ["</label><script>alert(3)</script>"]])
        try Fixtures.post(&session, "next", ["q0": ["</textarea><script>alert(4)</script>"]])
        try Fixtures.post(&session, "back")
        html = try Fixtures.render(session)
        #expect(html.contains("&lt;/textarea&gt;&lt;script&gt;alert(4)&lt;/script&gt;</textarea>"))
        #expect(!html.contains("<script>alert(4)"))
        try Fixtures.post(&session, "back")
        html = try Fixtures.render(session)
        #expect(html.contains("value=\"&lt;/label&gt;&lt;script&gt;alert(3)&lt;/script&gt;\""))
    }

    @Test func webContentIsTheStudysOwnHTML() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "consentPage")
        let html = try Fixtures.render(session)
        #expect(html.contains("<div class=\"web\"><h2>Taking part</h2><p>This example study"))
        #expect(html.contains("<canvas"), "the consent page asks for a signature after its content")
    }

    @Test func storedAnswersArePrefilledAfterBack() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "symptoms")
        try Fixtures.post(&session, "next", ["q0": ["2", "4"], "q0-other4": ["Bruising"]])
        try Fixtures.post(&session, "back")
        var html = try Fixtures.render(session)
        #expect(html.contains("id=\"q0-2\" name=\"q0\" value=\"2\" checked"))
        #expect(html.contains("id=\"q0-4\" name=\"q0\" value=\"4\" checked"))
        #expect(!html.contains("value=\"1\" checked"))
        #expect(html.contains("name=\"q0-other4\" value=\"Bruising\""))

        try Fixtures.walk(&session, to: "temperature")
        #expect(try Fixtures.render(session).contains("value=\"36.6\""), "the format's default fills an unanswered field")
        try Fixtures.post(&session, "next", ["q0": ["37.9"]])
        try Fixtures.post(&session, "next", ["q0": ["180"], "q1-lb": ["160"], "q1-oz": ["4"], "q2": ["61"]])
        try Fixtures.post(&session, "back")
        html = try Fixtures.render(session)
        #expect(html.contains("name=\"q0\" value=\"180\""))
        #expect(html.contains("name=\"q1-lb\" value=\"160\""))
        #expect(html.contains("name=\"q1-oz\" value=\"4\""))
        #expect(html.contains("name=\"q2\" value=\"61\""))
        try Fixtures.post(&session, "back")
        #expect(try Fixtures.render(session).contains("name=\"q0\" value=\"37.9\""))

        try Fixtures.walk(&session, to: "nextAppointment")
        try Fixtures.post(&session, "next", ["q0": ["2026-04-02T09:30"]])
        try Fixtures.post(&session, "next", ["q0": ["23:15"]])
        try Fixtures.post(&session, "next", ["q0-h": ["2"], "q0-m": ["5"]])
        try Fixtures.post(&session, "back")
        #expect(try Fixtures.render(session).contains("name=\"q0-m\" value=\"5\""))
        try Fixtures.post(&session, "back")
        #expect(try Fixtures.render(session).contains("value=\"23:15\""))
        try Fixtures.post(&session, "back")
        #expect(try Fixtures.render(session).contains("value=\"2026-04-02T09:30\""))
    }

    @Test func problemsAreShownBesideTheirFieldWithWhatWasTyped() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "temperature")
        let submission = try StepSubmission(form: Fixtures.form(session, "next", ["q0": ["45.5"]]))
        let result = try submission.apply(to: &session)
        let html = try Fixtures.render(session, errors: result.errors, submitted: submission)
        #expect(html.contains("<title>Error: Temperature – Recover</title>"))
        #expect(html.contains("<p class=\"err\" id=\"q0-err\">Enter a number from 34 to 43.</p>"))
        #expect(html.contains("aria-describedby=\"q0-hint q0-err\""))
        #expect(html.contains("aria-invalid=\"true\""))
        #expect(html.contains("value=\"45.5\""), "the typed value is shown again")
        #expect(html.contains("<a href=\"#q0\">Enter a number from 34 to 43.</a>"))
        #expect(PageChecks.problems(in: html).isEmpty)

        session = try Fixtures.session()
        try Fixtures.walk(&session, to: "pain")
        let empty = try StepSubmission(form: Fixtures.form(session, "next"))
        let missing = try empty.apply(to: &session)
        let japanese = try Fixtures.render(session, "ja", errors: missing.errors, submitted: empty)
        #expect(japanese.contains("この質問には回答が必要です。"))
        #expect(japanese.contains("<a href=\"#q0-0\">"), "a group's summary link goes to its first control")
    }

    @Test func pagesSpeakTheParticipantsLanguage() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "sleptWell")
        let japanese = try Fixtures.render(session, "ja")
        #expect(japanese.contains("<html lang=\"ja\">"))
        #expect(japanese.contains(">次へ</button>"))
        #expect(japanese.contains(">戻る</button>"))
        #expect(japanese.contains("ステップ 6/31"))
        let korean = try Fixtures.render(session, "ko")
        #expect(korean.contains("31단계 중 6단계"))
        let chinese = try Fixtures.render(session, "zh-Hans-CN")
        #expect(chinese.contains("<html lang=\"zh-Hans-CN\">"))
        #expect(chinese.contains(">下一步</button>"))
        try Fixtures.walk(&session, to: "surgeryDate")
        let spanish = try Fixtures.render(session, "es")
        #expect(spanish.contains("De 1 ene 2025 a 31 dic 2026.") || spanish.contains("De 1 ene. 2025 a 31 dic. 2026."),
                "date bounds in Spanish: \(PageChecks.matches(#"id="q0-hint">([^<]+)"#, in: spanish))")
    }

    /// Only a hex colour of 3, 4, 6 or 8 digits reaches the style sheet, with spaces and tabs around it trimmed.
    @Test(arguments: [
        ("#0a7d6f", "#0a7d6f"), ("#0A7", "#0A7"), ("#0a7d", "#0a7d"), ("#0a7d6fcc", "#0a7d6fcc"), (" \t#fff ", "#fff"),
        ("#ggg", nil), ("#12345", nil), ("#1234567", nil), ("fff", nil), ("#", nil), ("", nil), ("red", nil),
        ("#fff;}", nil), ("#fff\n", nil), ("#ｆｆｆ", nil), ("#٣٣٣", nil), ("##fff", nil), ("#f f", nil),
    ] as [(String, String?)])
    func theTintIsAHexColour(tint: String, expected: String?) {
        #expect(PageShell.validatedTint(tint) == expected)
    }

    @Test func assetsCanBeLinkedAndTheTintMustBeAColour() throws {
        let session = try Fixtures.session()
        var context = Fixtures.context(assets: .linked(basePath: "/static/"))
        context.themeTint = "red;}</style><script>alert(1)</script>"
        let html = try StepPageRenderer().render(session: session, context: context)
        #expect(html.contains("<link rel=\"stylesheet\" href=\"/static/studykit.css?v=\(WebAssets.version)\">"))
        #expect(html.contains("<script src=\"/static/studykit.js?v=\(WebAssets.version)\" defer></script>"))
        #expect(!html.contains("--tint:red"))
        #expect(!html.contains("<script>"))
        #expect(html.utf8.count < 6_000)
        #expect(WebAssets.stylesheet.contains("--tint"))
        #expect(WebAssets.script.contains("pointerdown"))
        #expect(!WebAssets.script.contains("</script"))
    }

    @Test func theStrokesOfAStoredSignatureAreDrawnWithoutScript() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "signature")
        #expect(try Fixtures.render(session, typedSignature: true).contains("name=\"signature-name\""))
        #expect(try !Fixtures.render(session).contains("name=\"signature-name\""))
        try Fixtures.post(&session, "next", ["signature": [Fixtures.strokes]])
        try Fixtures.post(&session, "back")
        let html = try Fixtures.render(session)
        #expect(html.contains("<svg viewBox=\"0 0 300 100\""))
        #expect(html.contains("<path d=\"M10 50L60 40L120 70\"/>"))
        #expect(html.contains("value=\"clear\""))
        #expect(!html.contains("<canvas"))
    }

    @Test func onlyStepsThatAskSomethingOfferSkip() throws {
        var session = try Fixtures.session()
        #expect(try !Fixtures.render(session).contains("value=\"skip\""), "an instruction has nothing to skip")
        #expect(try !Fixtures.render(session).contains("value=\"back\""), "the first step has no Back")
        try Fixtures.walk(&session, to: "done")
        let done = try Fixtures.render(session)
        #expect(done.contains("value=\"done\" class=\"primary\">Done</button>"))
        #expect(!done.contains("Step "), "a trailing completion step has no progress")
    }
}

@Suite("Answers on a review step")
struct ReviewAnswerLanguageTests {
    /// An age and a ladder's rung, answered, then a review of both.
    static let task = #"""
    {"identifier": "about", "steps": [
      {"type": "question", "identifier": "age", "title": "Age", "answerFormat": {"type": "age", "minimumAge": 0, "maximumAge": 110}},
      {"type": "question", "identifier": "ladder", "title": "Ladder", "answerFormat": {"type": "sesLadder", "numberOfRungs": 10}},
      {"type": "review", "identifier": "review", "title": "Check"}
    ]}
    """#

    @Test(arguments: [("en", "42 years", "1 year", "3 of 10"), ("ja", "42 歳", "1 歳", "10 段中 3 段目"),
                      ("es", "42 años", "1 año", "3 de 10"), ("ko", "42세", "1세", "10단 중 3단")])
    func areWordedInThePagesLanguage(language: String, age: String, oneYear: String, rung: String) throws {
        for (years, shown) in [("42", age), ("1", oneYear)] {
            var session = try Fixtures.session(TaskValidator.load(Data(Self.task.utf8)))
            try Fixtures.post(&session, "next", ["q0": [years]])
            try Fixtures.post(&session, "next", ["q0": ["3"]])
            #expect(session.currentStep?.identifier == "review")
            let html = try Fixtures.render(session, language)
            #expect(html.contains("<dd>\(shown)</dd>"), "\(language): \(PageChecks.matches("(<dd>[^<]*</dd>)", in: html))")
            #expect(html.contains("<dd>\(rung)</dd>"), "\(language): \(PageChecks.matches("(<dd>[^<]*</dd>)", in: html))")
        }
    }
}
