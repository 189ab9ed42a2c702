import ArgumentParser
import Consent
import Foundation
import Mail
import Study
import StudyFHIR
import StudySQLite
import StudyWeb
#if canImport(Glibc)
import Glibc
#endif

/// `studykit bench reminder-data`: writes a data folder whose participants have a reminder due, for
/// `scripts/bench_server.py` to start `studykit serve` on and count the mail it sends (issue 35's second target).
struct ReminderDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminder-data",
        abstract: "Write a data folder of participants with reminders due, for measuring how fast the server sends them (scripts/bench_server.py).",
        discussion: """
            Each participant is enrolled at --enrolled-at in --time-zone (one transaction with their care plan, as the \
            server enrols), onboarded as finishing the onboarding commits it (a consent record sealed with the data \
            folder's consent key, which is created if missing, and the onboarding gate's outcome in one transaction; \
            the record's text is one sentence, not the document, and its PDF is marked printed with a placeholder, so \
            that the server does not print a PDF for each with Chromium), \
            given one confirmed address, participant-N@example.org, and the chosen reminders turned on. Then the \
            reminders due at --due-at are listed as the server's sender lists them (ReminderDueList), and their number \
            is printed: "due at INSTANT: N". Nothing else differs from a server's data folder; start `studykit serve` \
            on it with --clock-start at --due-at and the mail options, and it sends them in its first round.
            """
    )

    @Option(help: "The study folder.", completion: .directory)
    var study: String = StudyPaths.defaultStudy

    @Option(help: "The data folder to write (new, or empty).", completion: .directory)
    var data: String

    @Option(help: "How many participants to enrol.")
    var participants = 1_000

    @Option(name: .customLong("enrolled-at"),
            help: ArgumentHelp("When they enrol and finish the onboarding (ISO 8601).", valueName: "instant"))
    var enrolledAt: String

    @Option(name: .customLong("due-at"), help: ArgumentHelp("The instant to list the reminders due at (ISO 8601).", valueName: "instant"))
    var dueAt: String

    @Option(name: .customLong("time-zone"), help: ArgumentHelp("The participants' time zone.", valueName: "zone"))
    var timeZone = "Europe/Berlin"

    @Option(name: .customLong("reminder"), help: ArgumentHelp("Turn on this reminder of the study (repeatable; all of them by default).", valueName: "id"))
    var reminders: [String] = []

    func validate() throws {
        try StudyPaths.check(study: study, data: data)
        for (name, value) in [("--enrolled-at", enrolledAt), ("--due-at", dueAt)] where (try? Date(value, strategy: .iso8601)) == nil {
            throw ValidationError("\(name): '\(value)' is not an ISO 8601 instant such as 2027-03-26T09:00:00+01:00")
        }
        guard TimeZone(identifier: timeZone) != nil else { throw ValidationError("--time-zone: '\(timeZone)' is not a time zone") }
        guard participants > 0 else { throw ValidationError("--participants must be at least 1") }
    }

    func run() async throws {
        umask(0o077)
        let definition = try StudyLoader.load(folder: URL(fileURLWithPath: study, isDirectory: true), surveyFormats: [FHIRSurveyFormat()])
        let unknown = Set(reminders).subtracting(definition.reminders.map(\.id))
        guard unknown.isEmpty else { throw ValidationError("--reminder: the study has no reminder \(unknown.sorted().joined(separator: ", "))") }
        let folder = URL(fileURLWithPath: data, isDirectory: true)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard existing.isEmpty else { throw ValidationError("--data: '\(data)' is not empty") }
        let enrolment = try Date(enrolledAt, strategy: .iso8601), due = try Date(dueAt, strategy: .iso8601)
        let clock = BenchClock(enrolment)
        let database = try SQLiteStudyDatabase.openForServer(dataFolder: folder, environment: clock.environment, durability: .processCrash,
                                                             auditAnchorInterval: .milliseconds(100))
        let consentKey = try ConsentKeyStore(keysDirectory: StudyDataFolder(url: folder).keys).loadOrCreate()
        let enrolled = try await ReminderBenchParticipants(study: definition, database: database, clock: clock)
            .enrol(count: participants, zones: [TimeZone(identifier: timeZone)!], at: enrolment,
                   reminders: reminders.isEmpty ? Set(definition.reminders.map(\.id)) : Set(reminders), consentKey: consentKey)
        clock.set(due)
        let deliveries = try await ReminderDueList(study: definition, data: database).deliveries(at: due)
        database.anchorAuditTrailNow()
        print("\(enrolled.count) participants enrolled at \(enrolledAt) in \(timeZone), each with a confirmed address")
        print("due at \(dueAt): \(deliveries.count)")
    }
}

/// `studykit bench smtp-send`: submits messages shaped like the server's reminders to a local SMTP server over one
/// session, with Mail's client alone: the floor under the server's own rate of sending reminders.
struct SMTPSendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smtp-send",
        abstract: "Send messages shaped like reminders to a local SMTP server over one session and print messages per second (scripts/bench_server.py).",
        discussion: """
            The messages are written before the clock starts: each a multipart reminder (ReminderMailBody's text and \
            HTML, List-Unsubscribe headers) to participant-N@example.org. What is timed is SMTPClient.withSession: \
            connecting, greeting, then MAIL FROM, RCPT TO and DATA for each message, then QUIT, over plain SMTP.
            """
    )

    @Option(help: "The SMTP server's port on 127.0.0.1.")
    var port: Int

    @Option(help: "How many messages to send.")
    var messages = 1_000

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be from 1 to 65535") }
        guard messages > 0 else { throw ValidationError("--messages must be at least 1") }
    }

    func run() async throws {
        var random = SystemRandomNumberGenerator()
        let from = MailMailbox(try MailAddress("recover@example.org"), displayName: "Recover")
        var prepared: [MailMessage] = []
        for index in 1...messages {
            let unsubscribe = "http://127.0.0.1:8080/reminders/unsubscribe/" + String(repeating: "x", count: 86)
            let body = ReminderMailBody(language: "en", paragraphs: ["One question about your knee today; it takes a few seconds.",
                                                                     "Task: Daily pain check"],
                                        link: (label: "Open the task", url: "http://127.0.0.1:8080/tasks/pain/\(index % 42)"),
                                        footer: ["You get this mail from Recover because you turned on reminders. Stop them: \(unsubscribe)",
                                                 "Choose which reminders you get: http://127.0.0.1:8080/settings/reminders"])
            prepared.append(try MailMessage(from: from, to: [try MailAddress("participant-\(index)@example.org")], subject: "Your daily pain check",
                                            textBody: body.text, htmlBody: body.html,
                                            extraHeaders: [try MailHeader("List-Unsubscribe", "<\(unsubscribe)>"),
                                                           try MailHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
                                                           try MailHeader("Auto-Submitted", "auto-generated")],
                                            date: Date(), using: &random))
        }
        let client = SMTPClient(configuration: SMTPConfiguration(host: "127.0.0.1", port: port, security: .plain))
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            try await client.withSession { session in
                for message in prepared { try await session.send(message) }
            }
        }
        print(String(format: "sent %d messages in %.3f s: %.1f messages/s, %d bytes each", messages, elapsed.seconds,
                     Double(messages) / elapsed.seconds, prepared[0].rendered().count))
    }
}
