import Foundation
import HTTPTypes
import Study
@testable import StudyServer
import StudyKitEnvironment
import StudyWeb
import Testing

/// One refusal vocabulary: each refusal of the study's workflow has its kind and code in `Study`, and the server
/// derives the status of the participant's page, the console's page and the API's JSON from them, once.
@Suite("Refusals")
struct StudyServerErrorTests {
    static let run = UUID()

    /// Every refusal of the workflow with the status its pages and JSON have always had.
    static let refusals: [(StudyRefusal, HTTPResponse.Status)] = [
        (.invitationRequired, .forbidden), (.invitationUnusable, .notFound), (.notAStudyLanguage("xx"), .unprocessableContent),
        (.onboardingRequired, .forbidden), (.onboardingCompleted, .conflict), (.onboardingHasNoEvents, .notFound),
        (.noSuchTask("pain"), .notFound), (.noSuchEvent(task: "pain", occurrence: 1), .notFound),
        (.eventDone(task: "pain", occurrence: 1), .conflict), (.eventNotDone(task: "pain", occurrence: 1), .conflict),
        (.eventNotDue(task: "pain", occurrence: 1), .conflict), (.eventClosed(task: "pain", occurrence: 1), .conflict),
        (.valueNotAccepted(task: "water", minimum: 0, maximum: 2000), .unprocessableContent), (.noSuchRun(run), .notFound),
        (.runEnded(run), .conflict), (.runCannotBeResumed(run, reason: "x"), .conflict), (.staleStep(run), .conflict),
        (.consentCannotBeRecorded(reason: "x"), .unprocessableContent), (.withdrawn, .forbidden),
    ]

    @Test func eachRefusalKeepsItsStatusAndItsCodeIsTheOneItsPageSays() {
        for (refusal, status) in Self.refusals {
            let error = StudyServerError(refusal)
            #expect(error.status == status && error.kind == refusal.kind, "\(refusal)")
            #expect(error.code == refusal.code, "\(refusal)")
            // The JSON code and the page's sentence name the same refusal: the code is the key's name.
            guard case .key(let key) = error.message else { Issue.record("\(refusal) has no page text"); continue }
            #expect(StudyServerError.code(of: key) == refusal.code, "\(refusal): \(key)")
        }
    }

    @Test func everyKindHasItsOwnStatus() {
        let statuses = StudyRefusal.Kind.allCases.map { StudyServerError($0, code: "x", "x").status }
        #expect(Set(statuses.map(\.code)).count == StudyRefusal.Kind.allCases.count)
        #expect(StudyRefusal.Kind.allCases.allSatisfy { "\(StudyServerError($0, code: "x", "x").status)".replacingOccurrences(of: " ", with: "")
            .lowercased().contains($0.rawValue.lowercased()) })
    }

    @Test func storeRefusalsAParticipantMeetsAreTheirRefusalsAndTheRestAreNot() {
        #expect(StudyServerError(refusing: StudyStoreError.invitationRevoked(revokedAt: Date())) == StudyServerError(StudyRefusal.invitationUnusable))
        #expect(StudyServerError(refusing: StudyStoreError.runFinished(run: Self.run, state: .completed)) == StudyServerError(StudyRefusal.runEnded(Self.run)))
        #expect(StudyServerError(refusing: StudyStoreError.unsafePDFPath("../x")) == nil)
        #expect(StudyServerError(refusing: CocoaError(.fileNoSuchFile)) == nil)
        #expect(StudyServerError(refusing: StudyServerError.formToken) == .formToken)
    }

    @Test func aRefusalReadsTheSameToTheConsoleAndTheAPIAndIsTranslatedOnAParticipantsPage() {
        let error = StudyServerError(StudyRefusal.valueNotAccepted(task: "water", minimum: 0, maximum: 2000))
        #expect(error.apiError.code == "value-not-accepted" && error.apiError.message == error.description)
        #expect(error.description.contains("2000") && error.text(in: WebStrings(language: "ja")).contains("2000"))
        #expect(error.text(in: WebStrings(language: "ja")) != error.description)
        let console = StudyServerError.consoleNotSignedIn
        #expect(console.text(in: WebStrings(language: "ja")) == console.description && console.status == .unauthorized)
    }

    @Test func aDatabaseThatDoesNotAnswerIsA503ThatSaysWhenToAskAgainAndNeverItsWords() {
        let error = StudyServerError(refusing: DatabaseUnavailable("connection refused (postgres://studykit@10.0.0.9:5432/study)"))
        #expect(error == .databaseUnavailable)
        #expect(error?.status == .serviceUnavailable && error?.retryAfterSeconds == 5 && error?.code == "database-unavailable")
        var headers = HTTPFields()
        error?.addRetryAfter(to: &headers)
        #expect(headers[.retryAfter] == "5")
        // The participant's page says to try again and that nothing is lost, in their language; the database's words
        // (its address, its error) stay in the log.
        for language in ["en", "ja", "ko", "zh-Hans", "es"] {
            let text = error?.text(in: WebStrings(language: language)) ?? ""
            #expect(!text.isEmpty && !text.contains("postgres") && !text.contains("10.0.0.9"), "\(language): \(text)")
        }
        #expect(error?.text(in: WebStrings(language: "ja")) != error?.text(in: WebStrings(language: "en")))
        // No other refusal asks the client to come back later.
        #expect(StudyServerError.serverError.retryAfterSeconds == nil && StudyServerError(StudyRefusal.withdrawn).retryAfterSeconds == nil)
    }
}
