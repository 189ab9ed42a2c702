import Foundation
import Research
import Testing
@testable import Consent

/// The Recover onboarding task: welcome, visual consent, sharing, review, done.
enum OnboardingTask {
    static let json = #"""
    {
      "identifier": "recover-onboarding",
      "title": "Join Recover",
      "steps": [
        { "type": "instruction", "identifier": "welcome", "title": "Welcome to Recover" },
        { "type": "visualConsent", "identifier": "visualConsent" },
        { "type": "consentSharing", "identifier": "sharing",
          "investigatorShortDescription": "the Recover team",
          "investigatorLongDescription": "the Recover team at the University Clinic",
          "learnMoreHTML": "<p>Coded data never includes your name.</p>" },
        { "type": "consentReview", "identifier": "review", "signature": "participant",
          "reasonForConsent": "By agreeing you confirm that you read the information and that you wish to take part in this research study.",
          "requiresScrollToBottom": true },
        { "type": "instruction", "identifier": "narrowSharing", "title": "Your data stays with the Recover team" },
        { "type": "completion", "identifier": "done", "title": "Thank you" }
      ],
      "navigationRules": {
        "welcome": { "goTo": "visualConsent" },
        "sharing": { "rules": [ { "if": "sharing == \"shareWidely\"", "goTo": "review" } ], "otherwise": "review" },
        "review": { "rules": [ { "if": "sharing == \"shareWidely\"", "goTo": "done" } ] }
      }
    }
    """#

    static func load(_ json: String = json, language: String? = nil) throws -> ConsentTask {
        try ConsentTaskLoader.load(taskData: Data(json.utf8), document: try ConsentFixtures.recover(),
                                   context: ConsentFixtures.context(language: language))
    }
}

@Suite struct ConsentTaskLoaderTests {
    func problems(_ json: String) -> [TaskDefinitionError] {
        do {
            _ = try OnboardingTask.load(json)
            return []
        } catch let failure as TaskValidationFailure {
            return failure.problems
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    @Test func expandsConsentStepsAmongOrdinaryOnes() throws {
        let loaded = try OnboardingTask.load()
        #expect(loaded.task.steps.map(\.identifier) == [
            "welcome",
            "visualConsent.overview", "visualConsent.dataGathering", "visualConsent.privacy", "visualConsent.timeCommitment", "visualConsent.4",
            "sharing", "review.document", "review.name", "review.signature", "narrowSharing", "done",
        ])
        #expect(loaded.consentSteps.map(\.type) == ["visualConsent", "consentSharing", "consentReview"])
        #expect(loaded.expandedIdentifiers["review"] == ["review.document", "review.name", "review.signature"])
        #expect(loaded.task.navigationRules["welcome"] == .direct(.step("visualConsent.overview")), "a destination goes to the first expanded step")
        #expect(loaded.task.navigationRules["review.signature"] != nil, "a rule keyed by the consent step applies after its last step")
        #expect(loaded.task.navigationRules["review"] == nil)
        guard case .conditional(let rules, let otherwise)? = loaded.task.navigationRules["sharing"] else {
            Issue.record("the sharing rule is lost")
            return
        }
        #expect(rules.first?.destination == .step("review.document"))
        #expect(otherwise == .step("review.document"))
        guard case .webContent(let content)? = loaded.task.step(withIdentifier: "review.document")?.kind else {
            Issue.record("review.document is not web content")
            return
        }
        #expect(content.requiresScrollToBottom)
    }

    @Test func skipRulesOnAConsentStepSkipEveryExpandedStep() throws {
        let json = OnboardingTask.json.replacingOccurrences(of: #""navigationRules": {"#, with: #""skipRules": { "visualConsent": "true" }, "navigationRules": {"#)
        let loaded = try OnboardingTask.load(json)
        #expect(Set(loaded.task.skipRules.keys) == Set(loaded.expandedIdentifiers["visualConsent"] ?? []))
    }

    @Test func aMalformedFileNamesLineAndColumn() {
        let found = problems("{\n\"identifier\": \"x\",\n\"steps\": [ {\"type\": \"visualConsent\" ]\n}")
        #expect(found.count == 1)
        #expect(found.first?.message.contains("line 3") == true, "\(found)")
    }

    @Test func consentStepProblemsKeepTheirPaths() {
        let json = #"""
        {
          "identifier": "t",
          "steps": [
            { "type": "instruction", "identifier": "welcome", "optinal": false },
            { "type": "consentSharing", "identifier": "sharing", "investigatorShortDescription": "" },
            { "type": "consentReview", "identifier": "review", "signature": "partcipant", "reasonForConsnt": "x" },
            { "type": "consentDocument", "identifier": "welcome", "signature": "participant" },
            { "type": "completion", "identifier": "done" }
          ],
          "navigationRules": { "review": { "goTo": "nowhere" }, "done": { "goTo": "review" } }
        }
        """#
        let found = problems(json)
        func message(_ path: String) -> String? { found.first { $0.path == path }?.message }
        #expect(message("steps[0].optinal")?.contains("did you mean 'optional'") == true, "\(found)")
        #expect(message("steps[1].investigatorLongDescription") == "is required but missing")
        #expect(message("steps[2].signature")?.contains("no signature 'partcipant'; did you mean 'participant'?") == true)
        #expect(message("steps[2].reasonForConsnt")?.contains("did you mean 'reasonForConsent'") == true)
        #expect(message("navigationRules.review.goTo")?.contains("unknown destination step 'nowhere'") == true)
        #expect(!found.contains { $0.path.hasPrefix("navigationRules.done") }, "a rule naming a faulty consent step still resolves: \(found)")
        let expandedNames = ["review.document", "review.name", "review.signature", "welcome.name", "welcome.document"]
        #expect(found.allSatisfy { problem in !expandedNames.contains { problem.path.contains($0) } }, "paths point into the file as written: \(found)")
    }

    @Test func faultsInExpandedStepsPointToTheConsentStep() {
        let json = #"""
        {
          "identifier": "t",
          "steps": [
            { "type": "instruction", "identifier": "review.name" },
            { "type": "consentReview", "identifier": "review", "signature": "participant" }
          ]
        }
        """#
        let found = problems(json)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.path == "steps[1]")
        #expect(found.first?.message.contains("consent step 'review'") == true)
        #expect(found.first?.message.contains("duplicate step identifier 'review.name' (also steps[0])") == true, "\(found)")
    }
}
