import Foundation
import Research
import Testing
@testable import Consent

@Suite struct ConsentStepsTests {
    let context = ConsentFixtures.context()

    @Test func visualConsentHasOnePagePerSectionNotOnlyInDocument() throws {
        let document = try ConsentFixtures.recover()
        let steps = try VisualConsentStep(identifier: "visualConsent").steps(for: document, context: context)
        #expect(steps.map(\.identifier) == ["visualConsent.overview", "visualConsent.dataGathering", "visualConsent.privacy",
                                            "visualConsent.timeCommitment", "visualConsent.4"])
        #expect(steps.allSatisfy { $0.kind == .instruction && !$0.isOptional })
        #expect(steps.map(\.title) == ["Welcome", "Data Gathering", "Privacy", "Time Commitment", "Risks"])
        #expect(steps[0].text == "Recover helps you strengthen your knee after surgery.")
        #expect(steps[3].learnMore == nil, "no content, no link")
        let privacy = try #require(steps[2].learnMore)
        #expect(privacy.text == "Only the study team can link codes to names.", "learnMoreContent wins over content")
        #expect(privacy.html == "<p>Only the study team can link codes to names.</p>")
        #expect(privacy.linkText == "Learn more about how we protect your privacy")
        let gathering = try #require(steps[1].learnMore)
        #expect(gathering.html?.contains("<li><em>Daily</em> pain ratings</li>") == true)
        #expect(gathering.text.contains("Knee range of motion"))
        #expect(!gathering.text.contains("<"))
    }

    @Test func visualConsentPagesCarryTheImageAndLanguage() throws {
        var document = try ConsentFixtures.recover()
        document.sections[0].customImage = ImageReference(url: "images/knee.png", altText: "A knee")
        document.sections.append(ConsentSection(type: .privacy, title: "More privacy", summary: "Second privacy section"))
        let steps = try VisualConsentStep(identifier: "v").steps(for: document, context: ConsentFixtures.context(language: "ko"))
        #expect(steps[0].image == ImageReference(url: "images/knee.png", altText: "A knee"))
        #expect(steps[0].title == "환영합니다")
        #expect(steps.map(\.identifier).contains("v.2") && steps.map(\.identifier).contains("v.6"), "a repeated type is numbered")
    }

    @Test func visualConsentWithoutPagesIsAProblem() {
        let document = ConsentDocument(identifier: "d", version: "1", title: "T",
                                       sections: [ConsentSection(type: .onlyInDocument, title: "Legal", content: .plainText("text"))])
        #expect(throws: ConsentValidationFailure.self) { _ = try VisualConsentStep(identifier: "v").steps(for: document, context: context) }
    }

    @Test func sharingIsARequiredSingleChoice() throws {
        let step = ConsentSharingStep(identifier: "sharing", investigatorShortDescription: "the Recover team",
                                      investigatorLongDescription: "the Recover team at the University Clinic",
                                      learnMoreHTML: "<p>Coded data <b>never</b> includes your name.</p>")
        let steps = try step.steps(for: try ConsentFixtures.recover(), context: context)
        #expect(steps.count == 1)
        let question = steps[0]
        #expect(question.identifier == "sharing")
        #expect(!question.isOptional)
        #expect(question.title == "Sharing Options")
        #expect(question.detailText?.hasPrefix("the Recover team at the University Clinic will receive") == true)
        guard case .question(.textChoice(let format)) = question.kind else {
            Issue.record("expected a text choice question, got \(question.kind)")
            return
        }
        #expect(format.style == .single)
        #expect(format.choices.map(\.value) == ["shareWidely", "investigatorsOnly"])
        #expect(format.choices.map(\.text) == ["Share my data with the Recover team and qualified researchers worldwide",
                                               "Only share my data with the Recover team"])
        #expect(question.learnMore?.html == "<p>Coded data <b>never</b> includes your name.</p>")
        #expect(question.learnMore?.text == "Coded data never includes your name.")
    }

    @Test func reviewExpandsToDocumentNameAndSignature() throws {
        let document = try ConsentFixtures.recover()
        let review = ConsentReviewStep(identifier: "review", signatureIdentifier: "participant",
                                       reasonForConsent: "You agree to take part in Recover.", requiresScrollToBottom: true)
        let steps = try review.steps(for: document, context: ConsentFixtures.context(language: "ja"))
        #expect(steps.map(\.identifier) == ["review.document", "review.name", "review.signature"])
        #expect(steps.allSatisfy { !$0.isOptional })

        guard case .webContent(let content) = steps[0].kind else { Issue.record("expected web content"); return }
        #expect(content.requiresScrollToBottom)
        #expect(!content.showSignatureAfterContent)
        #expect(content.html.hasPrefix("<article class=\"consent-document\" lang=\"ja\">"))
        #expect(!content.html.contains("signature-page"))
        #expect(steps[0].earlyTermination?.buttonText == "同意しない")
        #expect(steps[0].text == "以下の内容をご確認ください。続ける準備ができたら「同意する」をタップしてください。")

        guard case .form(let form) = steps[1].kind else { Issue.record("expected a form"); return }
        #expect(form.items.map(\.identifier) == ["familyName", "givenName"], "Japanese asks the family name first")
        #expect(form.items.map(\.text) == ["姓", "名"])
        #expect(form.items.allSatisfy { !$0.isOptional })

        guard case .signature = steps[2].kind else { Issue.record("expected a signature step"); return }
        #expect(steps[2].text == "You agree to take part in Recover.")
        #expect(steps[2].title == "同意の確認")
    }

    @Test func reviewLeavesOutWhatTheSignatureDoesNotRequire() throws {
        var document = try ConsentFixtures.recover()
        document.signatures[0].requiresName = false
        let steps = try ConsentReviewStep(identifier: "r", signatureIdentifier: "participant").steps(for: document, context: context)
        #expect(steps.map(\.identifier) == ["r.document", "r.signature"])
        #expect(steps[1].title == "Signature")
        document.signatures[0].requiresSignatureImage = false
        #expect(try ConsentReviewStep(identifier: "r", signatureIdentifier: "participant").steps(for: document, context: context).count == 1)
    }

    @Test func reviewOfAnUnknownSignatureIsAProblemNamingIt() throws {
        let document = try ConsentFixtures.recover()
        let problems = ConsentReviewStep(identifier: "r", signatureIdentifier: "participants").problems(for: document)
        #expect(problems.count == 1)
        #expect(problems.first?.path == "signature")
        #expect(problems.first?.message.contains("no signature 'participants'; did you mean 'participant'?") == true)
    }

    @Test func documentStepIsTheCodeAlongsWebContentWithSignature() throws {
        let steps = try ConsentDocumentStep(identifier: "consent", signatureIdentifier: "participant")
            .steps(for: try ConsentFixtures.recover(), context: context)
        #expect(steps.map(\.identifier) == ["consent.name", "consent.document"])
        guard case .webContent(let content) = steps[1].kind else { Issue.record("expected web content"); return }
        #expect(content.showSignatureAfterContent)
        #expect(!content.requiresScrollToBottom)
        #expect(content.html.contains("<h1>Recover: knee rehabilitation study</h1>"))
        #expect(steps[1].earlyTermination?.buttonText == "Disagree")
        guard case .form(let form) = steps[0].kind else { Issue.record("expected a form"); return }
        #expect(form.items.map(\.identifier) == ["givenName", "familyName"])
    }

    @Test func consentStepsRoundTripThroughJSON() throws {
        let steps: [ConsentStep] = [
            .visualConsent(VisualConsentStep(identifier: "v")),
            .sharing(ConsentSharingStep(identifier: "s", investigatorShortDescription: "a", investigatorLongDescription: "b")),
            .review(ConsentReviewStep(identifier: "r", signatureIdentifier: "participant", reasonForConsent: "why", requiresScrollToBottom: true)),
            .document(ConsentDocumentStep(identifier: "d", signatureIdentifier: "participant")),
        ]
        for step in steps {
            let data = try JSONEncoder().encode(step)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["type"] as? String == step.type)
            #expect(try JSONDecoder().decode(ConsentStep.self, from: data) == step)
        }
    }
}
