import NIOCore
import Testing

@testable import Mail

/// The pieces of the SMTP client that need no server: replies read whole however the bytes arrive (multiline ones
/// included) and anything else refused, dot-stuffing, the EHLO keywords, which failures are temporary, a configuration
/// that would send in the clear to another machine refused before any connection, and a password that no
/// description shows.
@Suite("SMTP protocol")
struct SMTPProtocolTests {
    private func replies(_ chunks: [String]) throws -> [SMTPReply] {
        var parser = SMTPReplyParser(), buffer = ByteBuffer(), replies: [SMTPReply] = []
        for chunk in chunks {
            buffer.writeString(chunk)
            while let reply = try parser.nextReply(from: &buffer) { replies.append(reply) }
        }
        return replies
    }

    @Test func multilineRepliesAreReadWholeHoweverTheBytesArrive() throws {
        let text = "220 smtp.test ESMTP\r\n250-smtp.test\r\n250-SIZE 33554432\r\n250-AUTH PLAIN LOGIN\r\n250 STARTTLS\r\n354 End data\n"
        let expected = [
            SMTPReply(code: 220, lines: ["smtp.test ESMTP"]),
            SMTPReply(code: 250, lines: ["smtp.test", "SIZE 33554432", "AUTH PLAIN LOGIN", "STARTTLS"]),
            SMTPReply(code: 354, lines: ["End data"]),
        ]
        #expect(try replies([text]) == expected)
        // One byte at a time, and in uneven pieces.
        #expect(try replies(text.map { String($0) }) == expected)
        #expect(try replies([String(text.prefix(30)), String(text.dropFirst(30).prefix(7)), String(text.dropFirst(37))]) == expected)
        #expect(try replies(["250"]) == [])
        #expect(try replies(["250\r\n"]) == [SMTPReply(code: 250, lines: [""])])
        #expect(expected[1].description == "250-smtp.test\n250-SIZE 33554432\n250-AUTH PLAIN LOGIN\n250 STARTTLS")
    }

    @Test(arguments: ["hello\r\n", "25\r\n", "250-first\r\n251 second\r\n", "250_x\r\n", "999 x\r\n", String(repeating: "2", count: 5000)])
    func whatIsNotAReplyIsRefused(_ text: String) {
        #expect(throws: SMTPReplyParser.MalformedReply.self) { try replies([text]) }
    }

    @Test func dotStuffingDoublesLeadingDotsAndEndsTheData() {
        func stuffed(_ text: String) -> String { String(buffer: DotStuffing.encode(Array(text.utf8))) }
        #expect(stuffed("a\r\n.\r\n..b\r\nc.d\r\n") == "a\r\n..\r\n...b\r\nc.d\r\n.\r\n")
        #expect(stuffed(".start\r\nend") == "..start\r\nend\r\n.\r\n")
        #expect(stuffed("") == ".\r\n")
    }

    @Test func theEHLOReplyTellsTheExtensionsAndAuthMechanisms() {
        let reply = SMTPReply(code: 250, lines: ["smtp.test Hello", "PIPELINING", "auth login Plain", "AUTH=CRAM-MD5", "STARTTLS", ""])
        let capabilities = SMTPCapabilities(ehloReply: reply)
        #expect(capabilities.keywords == ["PIPELINING", "AUTH", "STARTTLS"])
        #expect(capabilities.authMechanisms == ["LOGIN", "PLAIN", "CRAM-MD5"])
    }

    @Test func fourHundredsConnectionsAndTimeoutsAreTemporaryTheRestPermanent() {
        let address = try! MailAddress("a@example.com")
        func error(_ kind: SMTPError.Kind, _ code: Int? = nil) -> SMTPError {
            SMTPError(kind: kind, command: .rcptTo(address), reply: code.map { SMTPReply(code: $0, lines: ["x"]) })
        }
        #expect(error(.rejected, 450).isTemporary && error(.rejected, 421).isTemporary)
        #expect(!error(.rejected, 550).isTemporary && !error(.rejected, 535).isTemporary)
        for kind in [SMTPError.Kind.connectionFailed, .connectionClosed, .timedOut, .cancelled] { #expect(error(kind).isTemporary) }
        for kind in [SMTPError.Kind.unexpectedReply, .malformedReply, .tlsFailed, .startTLSUnavailable, .authenticationUnavailable,
                     .invalidConfiguration] {
            #expect(!error(kind).isTemporary)
        }
        let rejected = error(.rejected, 450)
        #expect(rejected.replyCode == 450 && rejected.replyText == "x" && rejected.command == .rcptTo(address))
        #expect(rejected.description == "The mail server refused RCPT TO:<a@example.com>: 450 x [temporary]")
    }

    @Test(arguments: ["smtp.example.org", "192.0.2.1", "127.0.0.2", "::2"])
    func plainSMTPToAnotherMachineIsRefusedBeforeConnecting(_ host: String) async throws {
        let client = SMTPClient(configuration: SMTPConfiguration(host: host, port: 25, security: .plain))
        var random = SeededRandomNumberGenerator(seed: 3)
        let message = try MailMessage(from: MailMailbox(try MailAddress("a@example.org")), to: [try MailAddress("b@example.org")],
                                      subject: "s", textBody: "b", date: .now, using: &random)
        let error = await #expect(throws: SMTPError.self) { try await client.send(message) }
        #expect(error?.kind == .invalidConfiguration && error?.command == .connect && error?.isTemporary == false)
    }

    @Test func theDefaultsAreSubmissionWithSTARTTLS() {
        let configuration = SMTPConfiguration(host: "smtp.example.org")
        #expect(configuration.security == .startTLS && configuration.port == 587 && configuration.trustRoots == .systemDefault)
        #expect(SMTPConfiguration(host: "smtp.example.org", security: .implicitTLS).port == 465)
        #expect(SMTPConfiguration(host: "127.0.0.1", port: 2525, security: .plain).port == 2525)
    }

    @Test func noDescriptionShowsThePassword() {
        let credentials = SMTPCredentials(username: "reminders", password: "s3cret-Pa55")
        let configuration = SMTPConfiguration(host: "smtp.example.org", credentials: credentials)
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [String(describing: credentials), String(reflecting: credentials), "\(configuration)", String(reflecting: configuration), dumped] {
            #expect(!text.contains("s3cret") && text.contains("reminders"), "\(text)")
        }
    }
}
