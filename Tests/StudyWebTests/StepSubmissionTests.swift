import Foundation
import Research
import Testing
@testable import StudyWeb

@Suite("Posted step forms")
struct StepSubmissionTests {
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// Walks to `step`, posts Next with `fields`, and returns the stored answer of `item` and the result.
    func post(_ step: String, _ fields: [String: [String]], item: String? = nil) throws -> (answer: Answer?, result: StepSubmissionResult) {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: step)
        let before = session.restorationData
        let result = try Fixtures.post(&session, "next", fields)
        if result.errors.isEmpty {
            #expect(session.currentStep?.identifier != step, "the run moved on from \(step)")
            return (session.result.answer(step: step, item: item), result)
        }
        #expect(session.restorationData == before, "a refused post leaves the run of \(step) as it was")
        return (nil, result)
    }

    /// The message the format itself gives for `text`: the server must show exactly that.
    func formatMessage(_ step: String, item: String? = nil, _ text: String) throws -> AnswerValidationError {
        let format = try #require(try Fixtures.everyFormat().step(withIdentifier: step)?.answerFormat(forItem: item))
        do {
            _ = try format.answer(fromText: text, locale: Locale(identifier: "en_US_POSIX"), timeZone: tokyo)
        } catch {
            return error
        }
        Issue.record("'\(text)' is valid for \(step)")
        return .study("")
    }

    @Test func choiceFormatsReadTheirNumbers() throws {
        #expect(try post("sleptWell", ["q0": ["yes"]]).answer == .boolean(true))
        #expect(try post("sleptWell", ["q0": ["no"]]).answer == .boolean(false))
        #expect(try post("mobility", ["q0": ["2"]]).answer == .choices([ChoiceSelection("stick")]))
        #expect(try post("symptoms", ["q0": ["1", "4"], "q0-other4": ["Bruising"]]).answer
            == .choices([ChoiceSelection("swelling"), ChoiceSelection("other", text: "Bruising")]))
        #expect(try post("feeling", ["q0": ["3"]]).answer == .choices([ChoiceSelection("bad")]))
        #expect(try post("operatedKnee", ["q0": ["2"]]).answer == .choices([ChoiceSelection("right")]))
        #expect(try post("walkingTime", ["q0-p1": ["2"], "q0-p2": ["3"]]).answer == .components([1, 30]))
        #expect(try post("stiffness", ["q0": ["4"]]).answer == .choices([ChoiceSelection(3)]))
        #expect(try post("pain", ["q0": ["7"]]).answer == .number(7))
        #expect(try post("stairsConfidence", ["q0": ["60"]]).answer == .number(60))
        #expect(try post("ladder", ["q0": ["3"]]).answer == .number(3))
    }

    @Test func choiceProblemsAreShownAndStoreNothing() throws {
        #expect(try post("symptoms", ["q0": ["1", "5"]]).result.errors["symptoms"] == .answer(AnswerValidationError(.exclusiveChoice, ["choice": .text("None of these")])))
        #expect(try post("symptoms", ["q0": ["4"]]).result.errors["symptoms"] == .answer(AnswerValidationError(.otherTextRequired, ["choice": .text("Something else")])))
        #expect(try post("mobility", ["q0": ["9"]]).result.errors["mobility"] == .builtIn(.notAChoice))
        #expect(try post("mobility", ["q0": ["two"]]).result.errors["mobility"] == .builtIn(.notAChoice))
        #expect(try post("sleptWell", ["q0": ["maybe"]]).result.errors["sleptWell"] == .builtIn(.notAChoice))
        #expect(try post("walkingTime", ["q0-p1": ["2"]]).result.errors["walkingTime"] == .builtIn(.chooseEveryList))
        #expect(try post("pain", ["q0": ["11"]]).result.errors["pain"] == .answer(try formatMessage("pain", "11")))
        #expect(try post("stairsConfidence", ["q0": ["65"]]).result.errors["stairsConfidence"] == .answer(try formatMessage("stairsConfidence", "65")))
    }

    @Test func typedFormatsGoThroughResearchsTextParser() throws {
        #expect(try post("usualActivity", ["q0": ["75"]]).answer == .number(Decimal(string: "0.75")!))
        #expect(try post("steps", ["q0": ["12000"]]).answer == .number(12000))
        #expect(try post("temperature", ["q0": ["37.2"]]).answer == .number(Decimal(string: "37.2")!))
        let day = try #require(DateAnswer(year: 2026, month: 3, day: 1, timeZone: tokyo))
        #expect(try post("surgeryDate", ["q0": ["2026-03-01"]]).answer == .date(day))
        let appointment = try #require(ISO8601DateFormatter().date(from: "2026-04-02T00:30:00Z"))
        #expect(try post("nextAppointment", ["q0": ["2026-04-02T09:30"]]).answer
            == .date(DateAnswer(date: appointment, timeZone: tokyo, includesTime: true)))
        #expect(try post("bedtime", ["q0": ["22:45"]]).answer == .timeOfDay(TimeOfDay(hour: 22, minute: 45)))
        #expect(try post("icing", ["q0-h": ["1"], "q0-m": ["15"]]).answer == .timeInterval(4500))
        #expect(try post("icing", ["q0-m": ["45"]]).answer == .timeInterval(2700))
        #expect(try post("nickname", ["q0": ["Hanako"]]).answer == .text("Hanako"))
        #expect(try post("notes", ["q0": ["Line one\r\nLine two"]]).answer == .text("Line one\nLine two"))
        #expect(try post("studyCode", ["q0": ["KNE-0420"]]).answer == .text("KNE-0420"))
        #expect(try post("email", ["q0": [" hanako@example.org "]]).answer == .text("hanako@example.org"))
        #expect(try post("clinic", ["q0-address": ["Shibuya, Tokyo"], "q0-lat": ["35.66"], "q0-lon": ["139.7"]]).answer
            == .location(LocationAnswer(address: "Shibuya, Tokyo", latitude: 35.66, longitude: 139.7)))
        #expect(try post("clinic", ["q0-address": ["Clinic @ Station Road"]]).answer == .location(LocationAnswer(address: "Clinic @ Station Road")))
    }

    @Test func typedProblemsShowTheFormatsOwnMessage() throws {
        #expect(try post("steps", ["q0": ["12.5"]]).result.errors["steps"] == .answer(try formatMessage("steps", "12.5")))
        #expect(try post("temperature", ["q0": ["45"]]).result.errors["temperature"] == .answer(try formatMessage("temperature", "45")))
        #expect(try post("temperature", ["q0": ["warm"]]).result.errors["temperature"] == .answer(try formatMessage("temperature", "warm")))
        #expect(try post("usualActivity", ["q0": ["150"]]).result.errors["usualActivity"] == .answer(try formatMessage("usualActivity", "150%")))
        #expect(try post("surgeryDate", ["q0": ["2024-12-31"]]).result.errors["surgeryDate"] == .answer(try formatMessage("surgeryDate", "2024-12-31")))
        #expect(try post("bedtime", ["q0": ["25:00"]]).result.errors["bedtime"] == .answer(try formatMessage("bedtime", "25:00")))
        #expect(try post("icing", ["q0-m": ["7"]]).result.errors["icing"] == .answer(try formatMessage("icing", "7m")))
        #expect(try post("nickname", ["q0": [String(repeating: "x", count: 41)]]).result.errors["nickname"]
            == .answer(try formatMessage("nickname", String(repeating: "x", count: 41))))
        #expect(try post("studyCode", ["q0": ["kne-42"]]).result.errors["studyCode"]
            == .answer(.study("A study code is three capital letters, a hyphen and four digits, for example KNE-0420.")))
        #expect(try post("email", ["q0": ["hanako@"]]).result.errors["email"] == .answer(try formatMessage("email", "hanako@")))
        #expect(try post("clinic", ["q0-address": ["Home"], "q0-lat": ["95"], "q0-lon": ["10"]]).result.errors["clinic"]
            == .answer(try formatMessage("clinic", "Home @ 95, 10")))
        #expect(try post("clinic", ["q0-lat": ["35"]]).result.errors["clinic"] != nil)
    }

    @Test func dontKnowWinsOverTheField() throws {
        #expect(try post("sleptWell", ["q0-dk": ["1"]]).answer == .dontKnow)
        #expect(try post("pain", ["q0": ["3"], "q0-dk": ["1"]]).answer == .dontKnow)
        #expect(try post("steps", ["q0-dk": ["1"]]).answer == .dontKnow)
    }

    @Test func formItemsAreAllOrNothing() throws {
        let heightFormat = HeightFormat(measurementSystem: .metric, minimum: 50, maximum: 250)
        let weightFormat = WeightFormat(measurementSystem: .usCustomary, precision: .high, minimum: 20, maximum: 300, defaultValue: 70)
        let expectedWeight = try #require(try AnswerFormat.weight(weightFormat).answer(fromText: "150 lb 8 oz"))
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "aboutYou")
        let before = session.restorationData
        let refused = try Fixtures.post(&session, "next", ["q0": ["172"], "q1-lb": ["150"], "q1-oz": ["8"], "q2": ["12"]])
        #expect(refused.errors.keys.sorted() == ["age"])
        #expect(session.answer(for: "height") == nil, "the valid height is not stored while the age is wrong")
        #expect(session.restorationData == before)
        let missing = try Fixtures.post(&session, "next", ["q1-lb": ["150"]])
        #expect(missing.errors == ["height": .builtIn(.answerRequired)])
        #expect(session.restorationData == before)
        let accepted = try Fixtures.post(&session, "next", ["q0": ["172"], "q1-lb": ["150"], "q1-oz": ["8"], "q2-dk": ["1"]])
        #expect(accepted.errors.isEmpty)
        #expect(session.result.answer(step: "aboutYou", item: "height") == .number(172))
        #expect(session.result.answer(step: "aboutYou", item: "weight") == expectedWeight)
        #expect(session.result.answer(step: "aboutYou", item: "age") == .dontKnow)
        _ = heightFormat
    }

    @Test func anEmptyOptionalFieldClearsTheStoredAnswer() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "aboutYou")
        try Fixtures.post(&session, "next", ["q0": ["172"], "q2": ["40"]])
        try Fixtures.post(&session, "back")
        #expect(session.answer(for: "age") == .number(40))
        try Fixtures.post(&session, "next", ["q0": ["172"], "q2": [""]])
        #expect(session.result.answer(step: "aboutYou", item: "age") == nil)
    }

    @Test func skipIsOnlyForOptionalSteps() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "pain")
        #expect(throws: StepSubmissionError.refused(.notOptional("pain"))) { try Fixtures.post(&session, "skip") }
        #expect(session.currentStep?.identifier == "pain")
        let html = try Fixtures.render(session)
        #expect(!html.contains("value=\"skip\""))
        try Fixtures.post(&session, "next", ["q0": ["2"]])
        #expect(try Fixtures.render(session).contains("value=\"skip\""))
        try Fixtures.post(&session, "next", ["q0": ["40"]])
        try Fixtures.post(&session, "back")
        try Fixtures.post(&session, "skip", ["q0": ["90"]])
        #expect(session.result.answer(step: "stairsConfidence") == nil, "skip stores nothing, even with a value posted")
    }

    @Test func aPostForAnotherStepOrWithStrangeFieldsIsRefused() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "pain")
        let before = session.restorationData
        var stale = Fixtures.form(session, "next", ["q0": ["3"]])
        stale["_step"] = ["sleptWell"]
        #expect(throws: StepSubmissionError.staleStep(posted: "sleptWell", current: "pain")) {
            try StepSubmission(form: stale).apply(to: &session)
        }
        #expect(throws: StepSubmissionError.unknownField("q1")) { try Fixtures.post(&session, "next", ["q1": ["3"]]) }
        #expect(throws: StepSubmissionError.repeatedField("q0")) { try Fixtures.post(&session, "next", ["q0": ["3", "4"]]) }
        #expect(throws: StepSubmissionError.unknownField("signature")) { try Fixtures.post(&session, "next", ["signature": [Fixtures.strokes]]) }
        #expect(throws: StepSubmissionError.unknownAction("jump")) { try Fixtures.post(&session, "jump") }
        #expect(throws: StepSubmissionError.refused(.notAllowed("step 'pain' does not offer ending the task early"))) {
            try Fixtures.post(&session, "end")
        }
        #expect(throws: StepSubmissionError.missingField("_step")) { try StepSubmission(form: ["action": ["next"]]) }
        #expect(throws: StepSubmissionError.missingField("action")) { try StepSubmission(form: ["_step": ["pain"]]) }
        #expect(session.restorationData == before)
        #expect(StepSubmissionError.staleStep(posted: "a", current: "b").description.contains("step 'a'"))
    }

    @Test func theCSRFTokenIsComparedExactly() throws {
        let session = try Fixtures.session()
        let submission = try StepSubmission(form: Fixtures.form(session, "next"))
        #expect(submission.hasCSRFToken(expected: Fixtures.csrf))
        #expect(!submission.hasCSRFToken(expected: Fixtures.csrf + "x"))
        #expect(!submission.hasCSRFToken(expected: ""))
        #expect(try !StepSubmission(form: ["_step": ["intro"], "action": ["next"]]).hasCSRFToken(expected: Fixtures.csrf))
    }

    @Test func signaturesArePostedAsStrokesOrATypedName() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "signature")
        let missing = try Fixtures.post(&session, "next")
        #expect(missing.errors == ["signature": .builtIn(.signatureRequired)])
        #expect(throws: StepSubmissionError.malformedField("signature", "is not signature JSON {\"width\", \"height\", \"strokes\": [[{\"x\", \"y\", \"t\"}]]}")) {
            try Fixtures.post(&session, "next", ["signature": ["{strokes"]])
        }
        let outside = #"{"width":100,"height":50,"strokes":[[{"x":150,"y":10,"t":0}]]}"#
        #expect(try Fixtures.post(&session, "next", ["signature": [outside]]).errors["signature"]
            == .answer(AnswerValidationError(.signatureOutsideArea)))
        #expect(throws: StepSubmissionError.unknownField("signature-name")) {
            try Fixtures.post(&session, "next", ["signature-name": ["Hanako Yamada"]])
        }
        #expect(session.currentStep?.identifier == "signature")
        try Fixtures.post(&session, "next", ["signature-name": ["Hanako Yamada"]], typedSignature: true)
        let typed = try #require(session.result.stepResult("signature")?.results.first)
        guard case .signature(let result) = typed else { Issue.record("no signature result"); return }
        #expect(result.signature.typedName == "Hanako Yamada")
        #expect(result.signature.strokes.isEmpty)

        try Fixtures.post(&session, "back")
        #expect(try Fixtures.render(session).contains("<strong>Hanako Yamada</strong>"))
        #expect(try Fixtures.post(&session, "clear").moved == false)
        #expect(session.signature == nil)
        try Fixtures.post(&session, "next", ["signature": [Fixtures.strokes]])
        guard case .signature(let drawn)? = session.result.stepResult("signature")?.results.first else { Issue.record("no signature"); return }
        #expect(drawn.signature.strokes[0].count == 3)
        #expect(drawn.signature.strokes[0][1] == SignaturePoint(x: 60, y: 40, t: 16.5))
        #expect(drawn.signature.width == 300)
    }

    @Test func permissionChoicesAreRecorded() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "permissions")
        #expect(throws: StepSubmissionError.self) { try Fixtures.post(&session, "next", ["perm1": ["maybe"]]) }
        #expect(throws: StepSubmissionError.unknownField("perm4")) { try Fixtures.post(&session, "next", ["perm4": ["granted"]]) }
        try Fixtures.post(&session, "next", ["perm1": ["granted"], "perm2": ["denied"]])
        let permissions = session.result.stepResult("permissions")?.results.compactMap { item -> PermissionResult? in
            if case .permission(let result) = item { return result }
            return nil
        }
        #expect(permissions?.map(\.outcome) == [.granted, .denied, .notDetermined])
    }

    @Test func earlyTerminationEndsTheRun() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "consentPage")
        #expect(try Fixtures.render(session).contains(">I do not agree</button>"))
        try Fixtures.post(&session, "end")
        #expect(session.finishReason == .earlyTermination)
        #expect(throws: StepSubmissionError.finished(.earlyTermination)) {
            try StepSubmission(form: ["_step": ["consentPage"], "action": ["next"]]).apply(to: &session)
        }
        #expect(throws: StepPageError.finished(.earlyTermination)) { try Fixtures.render(session) }
    }

    @Test func reviewEditGoesBackAndReturns() throws {
        var session = try Fixtures.session()
        try Fixtures.walk(&session, to: "review")
        let html = try Fixtures.render(session)
        #expect(html.contains("value=\"edit:pain\""))
        #expect(html.contains("<dd>4</dd>"), "the review shows the pain answer")
        #expect(throws: StepSubmissionError.malformedField("action", "names step 'nowhere', which the task does not have")) {
            try Fixtures.post(&session, "edit:nowhere")
        }
        try Fixtures.post(&session, "edit:pain")
        #expect(session.currentStep?.identifier == "pain")
        #expect(try Fixtures.render(session).contains("id=\"q0-4\" name=\"q0\" value=\"4\" checked"))
        try Fixtures.post(&session, "next", ["q0": ["6"]])
        #expect(session.currentStep?.identifier == "review")
        #expect(try Fixtures.render(session).contains("<dd>6</dd>"))
    }

    @Test func aWalksFormMayBeLargerByTwiceItsSamplesLimitAndNoOtherStepsMay() {
        let walk = Step(identifier: "walking.outbound", kind: .active(ActiveStepContent(module: "walk", duration: 30, settings: [
            "phase": .text("walk"), "recorders": .text("accelerometer,deviceMotion"), "frequency": .number(60)])), isOptional: false)
        // 2,330 readings a recorder at 340 + 100 bytes, and 64 KiB: 1,090,736 bytes of samples.
        #expect(StepSubmission.extraFormBytes(for: walk) == 2 * 1_090_736)
        let tapping = Step(identifier: "tapping.right", kind: .active(ActiveStepContent(module: "tapping", duration: 20)), isOptional: false)
        #expect(StepSubmission.extraFormBytes(for: tapping) == 0)
        // A short walk's rest at 10 readings a second stays within the usual limit.
        let rest = Step(identifier: "walking.rest", kind: .active(ActiveStepContent(module: "walk", duration: 20, settings: [
            "phase": .text("rest"), "recorders": .text("accelerometer,deviceMotion"), "frequency": .number(10)])), isOptional: false)
        #expect(StepSubmission.extraFormBytes(for: rest) == 0)
        #expect(StepSubmission.extraFormBytes(for: Step(identifier: "q", kind: .instruction)) == 0)
    }
}
