import Foundation
import Research
import Testing
@testable import StudyWeb

/// A permissions step's reminder email address (`"kind": "email"`): a field where the server sends mail, a sentence where
/// it does not; Next records only whether an address was given, and the address is handed to the server, never stored.
@Suite("Reminder email permission")
struct ReminderEmailPermissionTests {
    static let task = #"""
    {"identifier": "onboarding", "steps": [
      {"type": "instruction", "identifier": "hello", "title": "Hello"},
      {"type": "requestPermissions", "identifier": "permissions", "title": "Permissions", "permissions": [
        {"identifier": "reminders", "kind": "notifications", "title": "Reminders"},
        {"identifier": "email", "kind": "email", "title": "Reminders by email", "detailText": "If you like."}
      ]},
      {"type": "completion", "identifier": "done", "title": "Done"}
    ]}
    """#

    /// A session on the permissions step.
    func session() throws -> TaskSession {
        var session = try Fixtures.session(try TaskValidator.load(Data(Self.task.utf8)))
        try post(&session, "next")
        #expect(session.currentStep?.identifier == "permissions")
        return session
    }

    func context(offersEmail: Bool) -> PageContext {
        var context = Fixtures.context()
        context.offersReminderEmail = offersEmail
        return context
    }

    func render(_ session: TaskSession, offersEmail: Bool = true, errors: [String: FieldProblem] = [:],
                submitted: StepSubmission? = nil) throws -> String {
        try StepPageRenderer().render(session: session, context: context(offersEmail: offersEmail), errors: errors, submitted: submitted)
    }

    @discardableResult
    func post(_ session: inout TaskSession, _ action: String, _ fields: [String: [String]] = [:], offersEmail: Bool = true) throws
        -> StepSubmissionResult {
        try StepSubmission(form: Fixtures.form(session, action, fields)).apply(to: &session, offersReminderEmail: offersEmail)
    }

    func outcome(_ session: TaskSession) -> PermissionOutcome? {
        session.result.stepResults.last { $0.identifier == "permissions" }?.results.lazy.compactMap { item -> PermissionResult? in
            if case .permission(let result) = item, result.identifier == "email" { return result }
            return nil
        }.first?.outcome
    }

    @Test func theAddressHasAFieldWithItsHintAndNoChoice() throws {
        let html = try render(try session())
        #expect(PageChecks.problems(in: html).isEmpty, "\(PageChecks.problems(in: html))")
        #expect(html.contains("<legend>Reminders by email</legend><p class=\"detail\">If you like.</p>"))
        #expect(html.contains("<label for=\"perm2\">Email address</label>"))
        #expect(html.contains("<input type=\"email\" id=\"perm2\" name=\"perm2\" value=\"\" maxlength=\"254\" autocomplete=\"email\" aria-describedby=\"perm2-hint\">"))
        #expect(html.contains("We send a link to this address"))
        #expect(!html.contains("id=\"perm2-granted\""), "no Allow for the address")
        #expect(html.contains("id=\"perm1-granted\""), "notifications keep their choice")
        let form = StepForm(step: try #require(try session().currentStep), locale: Locale(identifier: "en"), timeZone: .gmt,
                            allowsTypedSignature: false, offersReminderEmail: true)
        #expect(form.fields.map(\.name) == ["perm1", "perm2"] && form.fields.map(\.input) == [.permission, .email])
        #expect(form.fields[1].isOptional)
    }

    @Test func withoutMailTheStepSaysSoAndNextRecordsUnavailable() throws {
        var session = try session()
        let html = try render(session, offersEmail: false)
        #expect(html.contains("This study does not send email.") && !html.contains("name=\"perm2\""))
        let form = StepForm(step: try #require(session.currentStep), locale: Locale(identifier: "en"), timeZone: .gmt,
                            allowsTypedSignature: false)
        #expect(form.fields.map(\.name) == ["perm1"])
        #expect(throws: StepSubmissionError.unknownField("perm2")) { try post(&session, "next", ["perm2": ["ada@example.org"]], offersEmail: false) }
        try post(&session, "next", offersEmail: false)
        #expect(outcome(session) == .unavailable)
    }

    @Test func nextRecordsWhetherAnAddressWasGivenAndNeverTheAddress() throws {
        var session = try session()
        let submission = try StepSubmission(form: Fixtures.form(session, "next", ["perm2": ["ada@example.org"]]))
        #expect(submission.reminderEmailAddresses(on: try #require(session.currentStep)).map { [$0.permission, $0.address] }
                == [["email", "ada@example.org"]])
        #expect(try submission.apply(to: &session, offersReminderEmail: true).moved)
        #expect(outcome(session) == .granted)
        for data in [try JSONEncoder().encode(session.result), try JSONEncoder().encode(session.restorationData)] {
            #expect(!String(decoding: data, as: UTF8.self).contains("ada@"), "the address is not kept in the run")
        }

        // Back on the step: the page says an address was given; Next with the field empty keeps it given.
        try post(&session, "back")
        let html = try render(session)
        #expect(html.contains("You gave an address here before.") && html.contains("value=\"\""))
        try post(&session, "next")
        #expect(outcome(session) == .granted)

        // Left empty (or only spaces) on a first pass: no address.
        var other = try self.session()
        #expect(try StepSubmission(form: Fixtures.form(other, "next", ["perm2": ["  "]])).reminderEmailAddresses(on: try #require(other.currentStep)).isEmpty)
        try post(&other, "next", ["perm2": ["  "]])
        #expect(outcome(other) == .denied)
    }

    @Test func onlyNextGivesTheAddress() throws {
        for action in ["back", "skip"] {
            var session = try session()
            let step = try #require(session.currentStep)
            let submission = try StepSubmission(form: Fixtures.form(session, action, ["perm2": ["ada@example.org"]]))
            #expect(submission.reminderEmailAddresses(on: step).isEmpty, "\(action)")
            _ = try submission.apply(to: &session, offersReminderEmail: true)
            #expect(session.currentStep?.identifier == (action == "back" ? "hello" : "done"))
            #expect(outcome(session) != .granted && outcome(session) != .denied, "\(action): no address given or refused")
        }
        // A post for another step names no address of this one.
        let session = try session()
        let stale = try StepSubmission(form: ["_step": ["hello"], "action": ["next"], "perm2": ["ada@example.org"]])
        #expect(stale.reminderEmailAddresses(on: try #require(session.currentStep)).isEmpty)
    }

    @Test func aRefusedAddressIsShownBesideItsFieldAndInTheSummary() throws {
        let session = try session()
        let long = String(repeating: "a", count: 2000) + "@example.org"
        let submission = try StepSubmission(form: Fixtures.form(session, "next", ["perm2": [long]]))
        let problem = FieldProblem.formatted(.remindersEmailInvalid, ["problem": "it is 2012 characters long; an address has at most 254"])
        let html = try render(session, errors: ["email": problem], submitted: submission)
        #expect(PageChecks.problems(in: html).isEmpty, "\(PageChecks.problems(in: html))")
        let message = "This is not an email address that can be used: it is 2012 characters long; an address has at most 254"
        #expect(problem.text(in: WebStrings(language: "en")) == message)
        #expect(html.contains("<p class=\"err\" id=\"perm2-err\">\(message)</p>"))
        #expect(html.contains("<a href=\"#perm2\">\(message)</a>"))
        #expect(html.contains("aria-describedby=\"perm2-err perm2-hint\" aria-invalid=\"true\""))
        #expect(html.contains("value=\"\(String(repeating: "a", count: 300))\""), "only the address's start is shown back")
        #expect(!html.contains(String(repeating: "a", count: 301)))
        #expect(html.contains("<title>Error: "))
    }

    @Test func everyLanguageHasTheNewTexts() {
        for language in ["en", "zh-Hans", "ja", "ko", "es"] {
            let table = WebStrings.builtInTable(language) ?? [:]
            for key in [WebStringKey.permissionEmailHint, .permissionEmailGiven, .remindersEmailNotSent, .remindersEmailUnavailable] {
                #expect(table[key.rawValue]?.isEmpty == false, "\(language): \(key)")
            }
            #expect(table[WebStringKey.remindersEmailNotSent.rawValue]?.contains("{problem}") == true, "\(language)")
        }
    }
}
