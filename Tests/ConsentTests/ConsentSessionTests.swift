import Foundation
import Research
import Testing
@testable import Consent

/// Runs the Recover onboarding through Research's TaskSession, as the terminal and web runners do.
@Suite struct ConsentSessionTests {
    @Test func fullRunYieldsASignatureAndTheSharingChoice() throws {
        let loaded = try OnboardingTask.load()
        let clock = ManualClock()
        var session = try TaskSession(task: loaded.task, environment: clock.environment())
        func forward() throws {
            clock.advance(by: 5)
            try session.goForward()
        }
        #expect(session.currentStep?.identifier == "welcome")
        try forward()
        for page in ["overview", "dataGathering", "privacy", "timeCommitment", "4"] {
            #expect(session.currentStep?.identifier == "visualConsent.\(page)")
            #expect(!session.canSkip)
            try forward()
        }
        #expect(session.currentStep?.identifier == "sharing")
        #expect(throws: TaskSessionError.self) { try session.skip() }
        try session.setAnswer(.choices([ChoiceSelection("shareWidely")]))
        try forward()
        #expect(session.currentStep?.identifier == "review.document")
        try forward()
        #expect(session.currentStep?.identifier == "review.name")
        #expect(throws: TaskSessionError.self) { try session.goForward() }
        try session.setAnswer(text: "太郎", for: "givenName")
        try session.setAnswer(text: "山田", for: "familyName")
        try forward()
        #expect(session.currentStep?.identifier == "review.signature")
        #expect(throws: TaskSessionError.missingAnswers(["signature"])) { try session.goForward() }
        let drawing = ConsentFixtures.drawing()
        clock.advance(by: 3)
        let signedAt = clock.now
        try session.sign(drawing)
        try forward()
        #expect(session.currentStep?.identifier == "done", "the rule keyed by 'review' applied after its signature step")
        try forward()
        #expect(session.finishReason == .completed)

        let result = session.result
        let signatures = loaded.signatureResults(from: result, finishReason: .completed)
        #expect(signatures == [ConsentSignatureResult(signatureIdentifier: "participant", givenName: "太郎", familyName: "山田",
                                                      signature: drawing, signedDate: signedAt, consented: true)])
        #expect(loaded.sharingChoice(from: result) == .shareWidely)

        let signed = try loaded.signedDocument(from: result, finishReason: .completed)
        #expect(signed.signatures[0].familyName == "山田")
        #expect(loaded.document.signatures[0].familyName == nil)
        let page = ConsentReviewRenderer(context: ConsentFixtures.context(language: "ja")).page(for: signed)
        #expect(page.contains("山田 太郎"))
        #expect(page.contains("<dd class=\"signature-date\">"))
    }

    @Test func disagreeingEndsTheTaskWithoutConsent() throws {
        let loaded = try OnboardingTask.load()
        let clock = ManualClock()
        var session = try TaskSession(task: loaded.task, environment: clock.environment())
        while session.currentStep?.identifier != "sharing" { try session.goForward() }
        try session.setAnswer(.choices([ChoiceSelection("investigatorsOnly")]))
        try session.goForward()
        #expect(session.currentStep?.identifier == "review.document")
        #expect(session.currentStep?.earlyTermination?.buttonText == "Disagree")
        try session.terminateEarly()
        #expect(session.finishReason == .earlyTermination)

        let result = session.result
        let signatures = loaded.signatureResults(from: result, finishReason: .earlyTermination)
        #expect(signatures == [ConsentSignatureResult(signatureIdentifier: "participant", consented: false)])
        #expect(loaded.sharingChoice(from: result) == .investigatorsOnly)
        #expect(try loaded.signedDocument(from: result, finishReason: .earlyTermination) == loaded.document)
    }

    @Test func stoppingBeforeTheReviewGivesNoSignatureResult() throws {
        let loaded = try OnboardingTask.load()
        var session = try TaskSession(task: loaded.task, environment: ManualClock().environment())
        try session.goForward()
        session.discard()
        #expect(loaded.signatureResults(from: session.result, finishReason: .discarded).isEmpty)
        #expect(loaded.sharingChoice(from: session.result) == nil)
    }

    @Test func codeAlongDocumentStepCollectsNameAndSignature() throws {
        let json = #"""
        { "identifier": "onboarding", "steps": [
            { "type": "instruction", "identifier": "welcome" },
            { "type": "consentDocument", "identifier": "consent", "signature": "participant" },
            { "type": "completion", "identifier": "done" } ] }
        """#
        let loaded = try OnboardingTask.load(json)
        let clock = ManualClock()
        var session = try TaskSession(task: loaded.task, environment: clock.environment())
        try session.goForward()
        try session.setAnswer(text: "Jamie", for: "givenName")
        try session.setAnswer(text: "Lee", for: "familyName")
        try session.goForward()
        #expect(session.currentStep?.identifier == "consent.document")
        #expect(session.missingAnswers == ["signature"])
        try session.sign(ConsentFixtures.drawing(strokes: 2))
        try session.goForward()
        try session.goForward()
        let results = loaded.signatureResults(from: session.result, finishReason: try #require(session.finishReason))
        #expect(results.count == 1)
        #expect(results.first?.consented == true)
        #expect(results.first?.givenName == "Jamie")
        #expect(results.first?.signature?.strokes.count == 2)

        var declined = try TaskSession(task: loaded.task, environment: clock.environment())
        try declined.goForward()
        try declined.setAnswer(text: "Jamie", for: "givenName")
        try declined.setAnswer(text: "Lee", for: "familyName")
        try declined.goForward()
        try declined.terminateEarly()
        #expect(loaded.signatureResults(from: declined.result, finishReason: .earlyTermination).map(\.consented) == [false])
    }
}
