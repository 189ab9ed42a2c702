import Foundation
import Mail
import Research
import Study
@testable import StudyServer
import StudyWeb
import Testing

/// Recover's onboarding asks for a reminder email address on its permissions step: added as on the reminders page when
/// the participant goes on with one, refused there with the reminders page's words, never kept in the run, and said to
/// be unavailable where the server sends no mail. (A confirmation that arrives is `tests/browser/test_reminders.py`'s.)
@Suite("The onboarding's reminder email address")
struct ReminderEmailStepTests {
    typealias Fixture = ServerFixture
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let strokes = #"{"width":300,"height":100,"strokes":[[{"x":10,"y":50,"t":0},{"x":60,"y":40,"t":16.5}]]}"#

    /// Mail to a port nothing listens on: every confirmation fails to send, as when the mail server is down.
    static var unreachableMail: ReminderSendingConfiguration {
        get throws {
            ReminderSendingConfiguration(publicURL: URL(string: "http://127.0.0.1:9"), mail: .init(
                smtp: SMTPConfiguration(host: "127.0.0.1", port: 9, security: .plain, connectTimeout: .seconds(5)),
                from: MailMailbox(try MailAddress("recover@example.org"))))
        }
    }

    /// A participant who has not finished the onboarding, with their onboarding run walked to its permissions step.
    func atPermissions(_ service: StudyService) async throws -> (StudyService.SignedIn, UUID) {
        let signedIn = try await Fixture.participant(of: service, zone: berlin, onboarded: false)
        let run = try await service.startRun(taskID: StudyTaskDefinition.onboardingID, occurrence: nil, for: signedIn.participant)
        for _ in 0..<10 {
            let step = try #require(try await service.workflow.currentStep(of: run, for: signedIn.participant))
            if step.identifier == "permissions" { return (signedIn, run) }
            var form = form(signedIn, step: step.identifier)
            if step.identifier == "consent.name" { form["q0"] = ["Ada"]; form["q1"] = ["Lovelace"] }
            if step.identifier == "consent.document" { form["signature"] = [Self.strokes] }
            guard case .redirect = try await service.post(form, to: run, signedIn: signedIn) else {
                throw Refused(step: step.identifier)
            }
        }
        throw Refused(step: "permissions (never reached)")
    }

    struct Refused: Error { let step: String }

    func form(_ signedIn: StudyService.SignedIn, step: String = "permissions", action: String = "next",
              _ fields: [String: [String]] = [:]) -> [String: [String]] {
        fields.merging(["_csrf": [signedIn.csrfToken], "_step": [step], "action": [action]]) { $1 }
    }

    /// The outcome of Recover's `email` permission in the run's result.
    func emailOutcome(_ service: StudyService, run: UUID, of signedIn: StudyService.SignedIn) async throws -> PermissionOutcome? {
        let session = try #require(try await service.workflow.run(run, for: signedIn.participant).session)
        return session.result.stepResults.last { $0.identifier == "permissions" }?.results.lazy.compactMap { item -> PermissionResult? in
            if case .permission(let result) = item, result.identifier == "email" { return result }
            return nil
        }.first?.outcome
    }

    @Test func withoutMailTheStepSaysSoAndRecordsUnavailable() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2027-03-23T08:00:00Z")))
        let (signedIn, run) = try await atPermissions(service)
        guard case .page(200, let html, _) = try await service.runPage(run, signedIn: signedIn) else {
            Issue.record("the permissions step should show")
            return
        }
        #expect(html.contains("Reminders by email") && html.contains("This study does not send email."))
        #expect(!html.contains("name=\"perm3\""), "no address field where no mail is sent")
        // A post of an address all the same is no form of this page.
        await #expect(throws: StudyServerError.self) {
            _ = try await service.post(form(signedIn, ["perm3": ["ada@example.org"]]), to: run, signedIn: signedIn)
        }
        guard case .redirect = try await service.post(form(signedIn, ["perm1": ["denied"]]), to: run, signedIn: signedIn) else {
            Issue.record("the participant goes on")
            return
        }
        #expect(try await emailOutcome(service, run: run, of: signedIn) == .unavailable)
        #expect(try await service.store.reminderChannels(participantID: signedIn.participant.id).isEmpty)
    }

    @Test func aRefusedAddressKeepsTheParticipantOnTheStepWithTheRemindersPagesWords() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2027-03-23T08:00:00Z")), reminders: try Self.unreachableMail)
        let (signedIn, run) = try await atPermissions(service)
        guard case .page(200, let page, _) = try await service.runPage(run, signedIn: signedIn) else {
            Issue.record("the permissions step should show")
            return
        }
        #expect(page.contains("<input type=\"email\" id=\"perm3\" name=\"perm3\" value=\"\" maxlength=\"254\" autocomplete=\"email\""))
        let before = try await service.store.run(id: run, participantID: signedIn.participant.id)
        for (address, reason) in [("ada@example.org\r\nBcc: everyone@example.org", "control character"),
                                  (String(repeating: "a", count: 2000) + "@example.org", "characters long"),
                                  ("ada\u{202E}@example.org", "text-direction"),
                                  ("not an address", "")] {
            guard case .page(422, let html, _) = try await service.post(form(signedIn, ["perm3": [address]]), to: run, signedIn: signedIn) else {
                Issue.record("'\(address.prefix(20))' should be refused on the step")
                continue
            }
            #expect(html.contains("This is not an email address that can be used: ") && (reason.isEmpty || html.contains(reason)), "\(address.prefix(20))")
            #expect(html.contains("aria-invalid=\"true\"") && html.contains("href=\"#perm3\""), "the field and the error summary say it")
            #expect(try await service.workflow.currentStep(of: run, for: signedIn.participant)?.identifier == "permissions")
        }
        #expect(try await service.store.reminderChannels(participantID: signedIn.participant.id).isEmpty)
        #expect(try await service.store.run(id: run, participantID: signedIn.participant.id) == before)

        // A good address whose confirmation the mail server does not take: kept (as on the reminders page), not confirmed,
        // and the participant stays to try again or go on without it.
        guard case .page(422, let html, _) = try await service.post(form(signedIn, ["perm3": ["ada@example.org"]]), to: run, signedIn: signedIn) else {
            Issue.record("an unsent confirmation should be said on the step")
            return
        }
        #expect(html.contains("The link to confirm this address could not be sent"))
        let channels = try await service.store.reminderChannels(participantID: signedIn.participant.id)
        #expect(channels.map(\.address) == ["ada@example.org"] && channels.allSatisfy { $0.kind == .email && !$0.isConfirmed })
        // Back ignores the address: nothing is added, the run goes back.
        guard case .redirect = try await service.post(form(signedIn, action: "back", ["perm3": ["other@example.org"]]), to: run, signedIn: signedIn) else {
            Issue.record("back goes back")
            return
        }
        #expect(try await service.store.reminderChannels(participantID: signedIn.participant.id).count == 1)
        let stored = try #require(try await service.store.run(id: run, participantID: signedIn.participant.id))
        let json = String(decoding: try JSONEncoder().encode(try #require(stored.restorationData)), as: UTF8.self)
        #expect(!json.contains("example.org"), "no address in the run's saved state")
    }
}
