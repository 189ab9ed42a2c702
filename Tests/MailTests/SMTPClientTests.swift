import Foundation
import Mail
import Testing

/// ``SMTPClient`` against a real SMTP server (aiosmtpd, `tests/support/smtp_server.py`, started for each test): plain
/// SMTP on loopback, STARTTLS and implicit TLS with a private CA that the test makes with `openssl`, AUTH PLAIN and
/// LOGIN; the message the server stores is byte for byte the one rendered; a 450 for a recipient is temporary, a 550,
/// a wrong password and an untrusted certificate permanent; 200 messages over one session all arrive. Against scripted
/// servers, the failures a real one will not stage: silence (a timeout), a hang-up, a server without STARTTLS, data
/// injected before the TLS handshake, a refused connection, a cancelled task.
@Suite("SMTP client")
struct SMTPClientTests {
    static let password = "correct horse battery staple"
    static let environment = ["STUDYKIT_TEST_SMTP_PASSWORD": password]
    static let authArguments = ["--auth-user", "reminders", "--auth-password-env", "STUDYKIT_TEST_SMTP_PASSWORD"]
    static let credentials = SMTPCredentials(username: "reminders", password: password)

    private func message(to recipient: String = "participant@example.com", number: Int = 1, seed: UInt64 = 9) throws -> MailMessage {
        var random = SeededRandomNumberGenerator(seed: seed &+ UInt64(number))
        return try MailMessage(
            from: MailMailbox(try MailAddress("reminders@study.example.org"), displayName: "Estudio Recover — 研究"),
            to: [try MailAddress(recipient)],
            subject: "Reminder \(number): 오늘의 설문이 준비되었습니다 — su encuesta está lista",
            textBody: "Hello,\n.\n.a line with a leading dot\n今日のアンケートです。\n..\nBye.\n",
            htmlBody: "<p>Hello,</p>\n.\n<p>今日のアンケートです。</p>\n",
            extraHeaders: [try .listUnsubscribe("https://study.example.org/unsubscribe/7QH4"), .listUnsubscribeOneClick],
            date: Date(timeIntervalSince1970: 1_772_528_700), using: &random)
    }

    private func configuration(
        port: Int, security: SMTPConfiguration.Security, host: String = "127.0.0.1", credentials: SMTPCredentials? = nil,
        certificates: TestCertificates? = nil, commandTimeout: Duration = .seconds(20)
    ) -> SMTPConfiguration {
        SMTPConfiguration(host: host, port: port, security: security, credentials: credentials, clientHostname: "studykit.test",
                          connectTimeout: .seconds(10), commandTimeout: commandTimeout,
                          trustRoots: certificates.map { .certificateAuthorityFile($0.authorityFile.path) } ?? .systemDefault)
    }

    @Test func aPlainSendOnLoopbackArrivesByteForByte() async throws {
        try await withTemporaryFolder { folder in
            try await withTestSMTPServer(in: folder) { server in
                let message = try message()
                try await SMTPClient(configuration: configuration(port: server.port, security: .plain)).send(message)
                #expect(server.messageNumbers == [1])
                #expect(try server.message(1) == message.rendered())
                #expect(try server.envelope(1) == ReceivedEnvelope(mailFrom: "reminders@study.example.org", rcptTos: ["participant@example.com"],
                                                                   tls: false, authLogin: nil))
            }
        }
    }

    @Test func startTLSWithAuthPlainTrustsThePrivateCA() async throws {
        try await withTemporaryFolder { folder in
            let certificates = try await TestCertificates(in: folder)
            try await withTestSMTPServer(in: folder, certificates.serverArguments + Self.authArguments + ["--auth-mechanisms", "PLAIN"],
                                         environment: Self.environment) { server in
                let message = try message()
                let client = SMTPClient(configuration: configuration(port: server.port, security: .startTLS, host: "localhost",
                                                                    credentials: Self.credentials, certificates: certificates))
                try await client.send(message)
                #expect(try server.message(1) == message.rendered())
                #expect(try server.envelope(1) == ReceivedEnvelope(mailFrom: "reminders@study.example.org", rcptTos: ["participant@example.com"],
                                                                   tls: true, authLogin: "reminders"))
            }
        }
    }

    @Test func authLoginIsUsedWhenItIsAllTheServerOffers() async throws {
        try await withTemporaryFolder { folder in
            let certificates = try await TestCertificates(in: folder)
            try await withTestSMTPServer(in: folder, certificates.serverArguments + Self.authArguments + ["--auth-mechanisms", "LOGIN"],
                                         environment: Self.environment) { server in
                try await SMTPClient(configuration: configuration(port: server.port, security: .startTLS, credentials: Self.credentials,
                                                                  certificates: certificates)).send(try message())
                #expect(try server.envelope(1).authLogin == "reminders")
            }
        }
    }

    @Test func implicitTLSSpeaksTLSFromTheFirstByte() async throws {
        try await withTemporaryFolder { folder in
            let certificates = try await TestCertificates(in: folder)
            try await withTestSMTPServer(in: folder, certificates.serverArguments + ["--implicit-tls"] + Self.authArguments,
                                         environment: Self.environment) { server in
                let message = try message()
                try await SMTPClient(configuration: configuration(port: server.port, security: .implicitTLS, host: "localhost",
                                                                  credentials: Self.credentials, certificates: certificates)).send(message)
                #expect(try server.message(1) == message.rendered())
                #expect(try server.envelope(1).tls && server.envelope(1).authLogin == "reminders")
            }
        }
    }

    @Test func aRecipientRefusedWith450IsTemporaryWith550PermanentAndTheSessionGoesOn() async throws {
        try await withTemporaryFolder { folder in
            try await withTestSMTPServer(in: folder, ["--reject-rcpt", "later@example.com=450", "--reject-rcpt", "nobody@example.com=550"]) { server in
                let client = SMTPClient(configuration: configuration(port: server.port, security: .plain))
                let later = try MailAddress("later@example.com"), nobody = try MailAddress("nobody@example.com")
                let temporary = await #expect(throws: SMTPError.self) { try await client.send(try message(to: "later@example.com")) }
                #expect(temporary?.kind == .rejected && temporary?.command == .rcptTo(later))
                #expect(temporary?.replyCode == 450 && temporary?.isTemporary == true)
                try await client.withSession { session in
                    let permanent = await #expect(throws: SMTPError.self) { try await session.send(try message(to: "nobody@example.com")) }
                    #expect(permanent?.kind == .rejected && permanent?.command == .rcptTo(nobody))
                    #expect(permanent?.replyCode == 550 && permanent?.isTemporary == false)
                    #expect(permanent?.replyText?.contains("nobody@example.com") == true)
                    // The refused transaction was reset: the next message over the same connection goes through.
                    try await session.send(try message())
                }
                #expect(server.messageNumbers == [1])
                #expect(try server.envelope(1).rcptTos == ["participant@example.com"])
            }
        }
    }

    @Test func aWrongPasswordIsPermanent() async throws {
        try await withTemporaryFolder { folder in
            let certificates = try await TestCertificates(in: folder)
            try await withTestSMTPServer(in: folder, certificates.serverArguments + Self.authArguments, environment: Self.environment) { server in
                let wrong = SMTPCredentials(username: "reminders", password: "wrong")
                let client = SMTPClient(configuration: configuration(port: server.port, security: .startTLS, credentials: wrong,
                                                                    certificates: certificates))
                let error = await #expect(throws: SMTPError.self) { try await client.send(try message()) }
                #expect(error?.kind == .rejected && error?.command == .auth && error?.replyCode == 535 && error?.isTemporary == false, "\(String(describing: error))")
                #expect(server.messageNumbers.isEmpty)
            }
        }
    }

    @Test func aCertificateFromAnUntrustedAuthorityIsPermanent() async throws {
        try await withTemporaryFolder { folder in
            let certificates = try await TestCertificates(in: folder)
            try await withTestSMTPServer(in: folder, certificates.serverArguments + Self.authArguments, environment: Self.environment) { server in
                // The system's authorities do not know the test's private CA.
                let client = SMTPClient(configuration: configuration(port: server.port, security: .startTLS, host: "localhost",
                                                                    credentials: Self.credentials))
                let error = await #expect(throws: SMTPError.self) { try await client.send(try message()) }
                #expect(error?.kind == .tlsFailed && error?.command == .startTLS && error?.isTemporary == false, "\(String(describing: error))")
                #expect(server.messageNumbers.isEmpty)
            }
        }
    }

    @Test func twoHundredMessagesOverOneSessionAllArrive() async throws {
        try await withTemporaryFolder { folder in
            let certificates = try await TestCertificates(in: folder)
            try await withTestSMTPServer(in: folder, certificates.serverArguments + Self.authArguments, environment: Self.environment) { server in
                let client = SMTPClient(configuration: configuration(port: server.port, security: .startTLS, credentials: Self.credentials,
                                                                    certificates: certificates))
                let messages = try (1...200).map { try message(to: "participant\($0)@example.com", number: $0) }
                try await client.withSession { session in
                    for message in messages { try await session.send(message) }
                }
                #expect(server.messageNumbers == Array(1...200))
                #expect(try server.message(200) == messages[199].rendered())
                #expect(try server.envelope(137).rcptTos == ["participant137@example.com"])
            }
        }
    }

    @Test func sendsFromManyTasksOverOneSessionTakeTurns() async throws {
        try await withTemporaryFolder { folder in
            try await withTestSMTPServer(in: folder) { server in
                let client = SMTPClient(configuration: configuration(port: server.port, security: .plain))
                let messages = try (1...20).map { try message(to: "p\($0)@example.com", number: $0) }
                try await client.withSession { session in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for message in messages { group.addTask { try await session.send(message) } }
                        try await group.waitForAll()
                    }
                }
                let received = try Set(server.messageNumbers.map { try server.message($0) })
                #expect(received == Set(messages.map { $0.rendered() }))
            }
        }
    }

    @Test func aServerWithoutSTARTTLSIsRefusedBeforeAnyPasswordIsSent() async throws {
        try await withScriptedSMTPServer(greeting: "220 plain.test ESMTP\r\n", replies: [
            ("EHLO", "250-plain.test\r\n250 AUTH PLAIN LOGIN\r\n"), ("QUIT", "221 Bye\r\n"), ("AUTH", "235 You should not be here\r\n"),
        ]) { port in
            let client = SMTPClient(configuration: configuration(port: port, security: .startTLS, credentials: Self.credentials))
            let error = await #expect(throws: SMTPError.self) { try await client.send(try message()) }
            #expect(error?.kind == .startTLSUnavailable && error?.isTemporary == false)
        }
    }

    @Test func dataInjectedBeforeTheTLSHandshakeIsRefused() async throws {
        try await withScriptedSMTPServer(greeting: "220 evil.test ESMTP\r\n", replies: [
            ("EHLO", "250-evil.test\r\n250 STARTTLS\r\n"), ("STARTTLS", "220 Go ahead\r\n250 injected\r\n"),
        ]) { port in
            let error = await #expect(throws: SMTPError.self) {
                try await SMTPClient(configuration: configuration(port: port, security: .startTLS)).send(try message())
            }
            #expect(error?.kind == .malformedReply && error?.command == .startTLS && error?.isTemporary == false)
        }
    }

    /// A server that never greets: the command timeout given (300 ms) ends the wait, as a timeout at the greeting (a
    /// client that ignored it would wait until the test's time limit).
    @Test(.timeLimit(.minutes(1)))
    func silenceTimesOutAndAHangUpOrARefusedConnectionIsTemporary() async throws {
        try await withScriptedSMTPServer(greeting: nil) { port in
            let error = await #expect(throws: SMTPError.self) {
                try await SMTPClient(configuration: configuration(port: port, security: .plain, commandTimeout: .milliseconds(300))).send(try message())
            }
            #expect(error?.kind == .timedOut && error?.command == .greeting && error?.isTemporary == true)
        }
        try await withScriptedSMTPServer(greeting: "220 flaky.test ESMTP\r\n", replies: [("EHLO", "250 flaky.test\r\n"), ("MAIL", "")]) { port in
            let error = await #expect(throws: SMTPError.self) {
                try await SMTPClient(configuration: configuration(port: port, security: .plain)).send(try message())
            }
            #expect(error?.kind == .connectionClosed && error?.command == .mailFrom && error?.isTemporary == true)
        }
        try await withScriptedSMTPServer(greeting: "421 busy.test Too busy, try later\r\n") { port in
            let error = await #expect(throws: SMTPError.self) {
                try await SMTPClient(configuration: configuration(port: port, security: .plain)).send(try message())
            }
            #expect(error?.kind == .rejected && error?.command == .greeting && error?.replyCode == 421 && error?.isTemporary == true)
        }
        let error = await #expect(throws: SMTPError.self) {
            try await SMTPClient(configuration: configuration(port: try await closedPort(), security: .plain)).send(try message())
        }
        #expect(error?.kind == .connectionFailed && error?.command == .connect && error?.isTemporary == true)
    }

    /// Cancelled while the server is silent, a send ends as cancelled, not as the 60 s timeout it would otherwise reach
    /// (and after which it would say "timed out").
    @Test(.timeLimit(.minutes(1)))
    func aCancelledSendStopsWaiting() async throws {
        try await withScriptedSMTPServer(greeting: nil) { port in
            let client = SMTPClient(configuration: configuration(port: port, security: .plain, commandTimeout: .seconds(60)))
            let message = try message()
            let task = Task { try await client.send(message) }
            task.cancel()
            let error = await #expect(throws: SMTPError.self) { try await task.value }
            #expect(error?.kind == .cancelled)
        }
    }
}
