import Foundation
import Mail
import Testing

/// ``MailMessage`` renders RFC 5322 messages that other readers take back unchanged: exact header fields, a subject and
/// a sender's name in any script as encoded-words (each at most 75 characters, none splitting a character) that decode
/// back, bodies in quoted-printable that decode back to the same UTF-8 text, `multipart/alternative` with the text
/// first, CRLF line ends only, short lines; the same bytes for the same seed. Header values that could inject a field
/// are refused. Python's `email` package, a reader nobody here wrote, reads the messages back too.
@Suite("Mail messages")
struct MailMessageTests {
    static let sender = MailMailbox(try! MailAddress("reminders@study.example.org"), displayName: "Recover Study")
    static let participant = try! MailAddress("participant@example.com")
    /// 2026-03-03 09:05:00 UTC.
    static let date = Date(timeIntervalSince1970: 1_772_528_700)

    static let texts = [
        "今日のアンケートのご案内です。ご協力ありがとうございます。回答は五分ほどで終わります。よろしくお願いいたします。",
        "오늘의 설문이 준비되었습니다. 참여해 주셔서 감사합니다. 약 5분 정도 걸립니다. 좋은 하루 보내세요.",
        "您今天的问卷已准备好。感谢您的参与，大约需要五分钟。祝您有美好的一天。",
        "Su encuesta de hoy está lista: ¿tiene cinco minutos? Año, niño, corazón, acción, pingüino.",
        "Reminder 👩🏽‍⚕️ with emoji, then a long ASCII tail that goes on and on and on so that it has to be folded",
        "A plain ASCII subject that is long enough to need folding across more than one line of the header, surely",
    ]

    private func message(
        subject: String = "Your survey for today", displayName: String? = "Recover Study", text: String = "Hello,\nyour daily survey is ready.\n",
        html: String? = nil, extraHeaders: [MailHeader] = [], seed: UInt64 = 42
    ) throws -> MailMessage {
        var random = SeededRandomNumberGenerator(seed: seed)
        return try MailMessage(from: MailMailbox(Self.sender.address, displayName: displayName), to: [Self.participant], subject: subject,
                               textBody: text, htmlBody: html, extraHeaders: extraHeaders, date: Self.date, using: &random)
    }

    private func rendered(_ message: MailMessage) -> String { String(decoding: message.rendered(), as: UTF8.self) }

    @Test func aPlainTextMessageIsWrittenExactly() throws {
        let message = try message(extraHeaders: [try .listUnsubscribe("https://study.example.org/unsubscribe/7QH4"), .listUnsubscribeOneClick])
        #expect(rendered(message) == """
            Date: Tue, 03 Mar 2026 09:05:00 +0000\r
            From: Recover Study <reminders@study.example.org>\r
            To: participant@example.com\r
            Subject: Your survey for today\r
            Message-ID: <bdd732262feb6e9528efe333b266f103@study.example.org>\r
            MIME-Version: 1.0\r
            List-Unsubscribe: <https://study.example.org/unsubscribe/7QH4>\r
            List-Unsubscribe-Post: List-Unsubscribe=One-Click\r
            Content-Type: text/plain; charset=utf-8\r
            Content-Transfer-Encoding: quoted-printable\r
            \r
            Hello,\r
            your daily survey is ready.\r

            """)
        #expect(message.messageID == "bdd732262feb6e9528efe333b266f103@study.example.org")
        #expect(message.boundary == "=_47526757130f9f52581ce1ff0e4ae394")
    }

    @Test func withHTMLTheMessageIsMultipartAlternativeWithTheTextFirst() throws {
        let message = try message(text: "Hello.\n", html: "<p>Hello.</p>\n")
        let boundary = "=_47526757130f9f52581ce1ff0e4ae394"
        let text = rendered(message)
        #expect(text.contains("MIME-Version: 1.0\r\nContent-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"\r\n\r\n"))
        #expect(text.hasSuffix("""
            \r
            --\(boundary)\r
            Content-Type: text/plain; charset=utf-8\r
            Content-Transfer-Encoding: quoted-printable\r
            \r
            Hello.\r
            \r
            --\(boundary)\r
            Content-Type: text/html; charset=utf-8\r
            Content-Transfer-Encoding: quoted-printable\r
            \r
            <p>Hello.</p>\r
            \r
            --\(boundary)--\r

            """))
    }

    @Test(arguments: texts)
    func aSubjectInAnyScriptDecodesBackFromShortEncodedWords(_ subject: String) throws {
        let text = rendered(try message(subject: subject))
        let header = String(text[..<text.range(of: "\r\n\r\n")!.lowerBound])
        for line in header.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 76, "\(line)")
        }
        let value = try #require(MIMEDecoding.split(text).fields.first { $0.name == "Subject" }?.value)
        #expect(MIMEDecoding.decodeEncodedWords(value) == subject)
        let words = value.split(separator: " ").filter { $0.hasPrefix("=?") }
        if subject.unicodeScalars.allSatisfy(\.isASCII) && !subject.contains("👩") {
            #expect(words.isEmpty && value == subject)
        } else {
            #expect(!words.isEmpty)
        }
        for word in words {
            #expect(word.count <= 75)
            // Each word decodes on its own to whole characters: no UTF-8 sequence is split between two words.
            let payload = word.dropFirst("=?utf-8?B?".count).dropLast(2)
            let bytes = try #require(Data(base64Encoded: String(payload)))
            #expect(String(data: bytes, encoding: .utf8) != nil, "\(word)")
        }
    }

    @Test(arguments: ["Ünïcödé Stüdy Team", "研究チーム「リカバー」", "\"Quoted\" Study, Inc.", "Dr. Ada Lovelace", String(repeating: "Très long nom ", count: 8)])
    func theSendersNameDecodesBack(_ name: String) throws {
        let text = rendered(try message(displayName: name))
        let value = try #require(MIMEDecoding.split(text).fields.first { $0.name == "From" }?.value)
        #expect(value.hasSuffix(" <reminders@study.example.org>"))
        var phrase = MIMEDecoding.decodeEncodedWords(String(value.dropLast(" <reminders@study.example.org>".count)))
        if phrase.hasPrefix("\"") {
            phrase = String(phrase.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
        }
        #expect(phrase == name)
    }

    @Test func bodiesDecodeBackFromQuotedPrintableToTheSameText() throws {
        let body = Self.texts.joined(separator: "\n") + "\n"
            + "trailing spaces   \n\ttab first, = sign, =3D literal, 100% done\n.\n.a line starting with a dot\nFrom the team\n"
            + String(repeating: "x", count: 200) + "\n" + String(repeating: "é", count: 100) + "\n\nLast line without a break"
        let html = "<p lang=\"ja\">\(Self.texts[0])</p>\n<p>\(Self.texts[3])</p>\n"
        let text = rendered(try message(text: body, html: html))
        let parts = text.components(separatedBy: "--=_47526757130f9f52581ce1ff0e4ae394")
        #expect(parts.count == 4)
        let plain = MIMEDecoding.split(parts[1].trimmingPrefix("\r\n").description).body
        let htmlPart = MIMEDecoding.split(parts[2].trimmingPrefix("\r\n").description).body
        // The CRLF before a boundary belongs to the boundary.
        #expect(plain.hasSuffix("\r\n") && htmlPart.hasSuffix("\r\n"))
        #expect(MIMEDecoding.decodeQuotedPrintable(String(plain.utf8.dropLast(2))!) == body)
        #expect(MIMEDecoding.decodeQuotedPrintable(String(htmlPart.utf8.dropLast(2))!) == html)
        #expect(!plain.contains("   \r\n") && plain.contains("spaces  =20\r\n"))
    }

    @Test func linesEndInCRLFOnlyAndStayShort() throws {
        let body = "one\ntwo\r\nthree\rfour\n" + String(repeating: "long line ", count: 150) + "\n" + Self.texts.joined()
        for message in [try message(text: body), try message(subject: Self.texts[0], text: body, html: "<p>\(body)</p>")] {
            let bytes = message.rendered()
            #expect(!bytes.contains(0x00) && bytes.allSatisfy { $0 < 0x80 }, "7-bit")
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
                #expect(index > 0 && bytes[index - 1] == UInt8(ascii: "\r"), "bare LF at \(index)")
            }
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\r") {
                #expect(index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"), "bare CR at \(index)")
            }
            #expect(bytes.suffix(2) == [13, 10])
            let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
            #expect(lines.allSatisfy { $0.utf8.count <= 998 })
            #expect(lines.allSatisfy { $0.utf8.count <= 76 }, "\(lines.filter { $0.utf8.count > 76 })")
        }
    }

    @Test(arguments: [
        (Date(timeIntervalSince1970: 0), "Thu, 01 Jan 1970 00:00:00 +0000"),
        (Date(timeIntervalSince1970: 1_709_251_199.75), "Thu, 29 Feb 2024 23:59:59 +0000"),
        (Date(timeIntervalSince1970: -1), "Wed, 31 Dec 1969 23:59:59 +0000"),
        (Date(timeIntervalSince1970: 946_684_800), "Sat, 01 Jan 2000 00:00:00 +0000"),
    ])
    func theDateIsWrittenInUTC(_ date: Date, _ expected: String) throws {
        var random = SeededRandomNumberGenerator(seed: 1)
        let message = try MailMessage(from: Self.sender, to: [Self.participant], subject: "s", textBody: "b", date: date, using: &random)
        #expect(rendered(message).hasPrefix("Date: \(expected)\r\n"))
    }

    @Test func theSameSeedGivesTheSameBytesAndAnotherSeedAnotherIDAndBoundary() throws {
        let first = try message(html: "<p/>"), again = try message(html: "<p/>"), other = try message(html: "<p/>", seed: 7)
        #expect(first.rendered() == again.rendered())
        #expect(other.messageID != first.messageID && other.boundary != first.boundary)
        #expect(other.messageID.hasSuffix("@study.example.org") && other.boundary.hasPrefix("=_"))
    }

    @Test(arguments: ["Subject\r\nBcc: victim@example.com", "line\nbreak", "carriage\rreturn", "unicode\u{2028}line"])
    func lineBreaksInHeaderValuesAreRefused(_ value: String) throws {
        #expect(throws: MailMessageError.lineBreakInHeader(field: "Subject")) { try message(subject: value) }
        #expect(throws: MailMessageError.lineBreakInHeader(field: "From")) { try message(displayName: value) }
        #expect(throws: MailMessageError.lineBreakInHeader(field: "X-Study")) { try MailHeader("X-Study", value) }
        #expect(throws: MailMessageError.lineBreakInHeader(field: "List-Unsubscribe")) { try MailHeader.listUnsubscribe("https://e.org/\(value)") }
    }

    @Test func otherBadHeadersAndIdentifiersAreRefused() throws {
        #expect(throws: MailMessageError.controlCharacterInHeader(field: "Subject")) { try message(subject: "nul\0") }
        #expect(throws: MailMessageError.reservedHeaderName("Content-Type")) { try MailHeader("Content-Type", "text/html") }
        #expect(throws: MailMessageError.reservedHeaderName("from")) { try MailHeader("from", "x@example.org") }
        #expect(throws: MailMessageError.invalidHeaderName("X Study")) { try MailHeader("X Study", "1") }
        #expect(throws: MailMessageError.invalidHeaderName("X:Study")) { try MailHeader("X:Study", "1") }
        #expect(throws: MailMessageError.invalidHeaderName("")) { try MailHeader("", "1") }
        #expect(throws: MailMessageError.nonASCIIHeaderValue(field: "X-Study")) { try MailHeader("X-Study", "étude") }
        #expect(throws: MailMessageError.headerLineTooLong(field: "X-Study")) { try MailHeader("X-Study", String(repeating: "x", count: 1000)) }
        #expect(throws: Never.self) { try MailHeader("X-Study", (1...200).map { "word\($0)" }.joined(separator: " ")) }
        let base = (from: Self.sender, to: [Self.participant], subject: "s", text: "b")
        func make(to: [MailAddress] = [Self.participant], id: String = "a.b@c.d", boundary: String = "b1", html: String? = nil) throws -> MailMessage {
            try MailMessage(from: base.from, to: to, subject: base.subject, textBody: base.text, htmlBody: html, date: Self.date,
                            messageID: id, boundary: boundary)
        }
        #expect(throws: MailMessageError.noRecipients) { try make(to: []) }
        for id in ["<a@b>", "a@b@c", "ab", "a b@c", "a..b@c", "@c", "a@"] {
            #expect(throws: MailMessageError.invalidMessageID(id)) { try make(id: id) }
        }
        for boundary in ["", String(repeating: "b", count: 71), "a b", "a\"b", "a\r\nb"] {
            #expect(throws: MailMessageError.invalidBoundary(boundary)) { try make(boundary: boundary) }
        }
        #expect(throws: MailMessageError.boundaryOccursInBody("part")) { try make(boundary: "part", html: "<p>\n--part\n</p>") }
        #expect(throws: Never.self) { try make(boundary: "part", html: nil) }
    }

    @Test func everyErrorSaysWhatWasWrongInASentence() {
        let errors: [MailMessageError] = [
            .noRecipients, .lineBreakInHeader(field: "Subject"), .controlCharacterInHeader(field: "Subject"), .nonASCIIHeaderValue(field: "X"),
            .invalidHeaderName("X Y"), .reservedHeaderName("From"), .headerLineTooLong(field: "X"), .invalidMessageID("x"),
            .invalidBoundary(""), .boundaryOccursInBody("b"),
        ]
        for error in errors {
            #expect(error.description.hasSuffix(".") && (error.description.first!.isUppercase || error.description.hasPrefix("\"")), "\(error)")
        }
        #expect(Set(errors.map(\.description)).count == errors.count)
    }

    /// Python's `email` package (policy `default`), reading the message as a mail program would: subject, sender,
    /// bodies and the defects it found.
    @Test func pythonsEmailPackageReadsBackWhatWasWritten() async throws {
        let python = TestSMTPServer.packageRoot.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw TestSetupError(description: "\(python.path) is missing: run `make test`, which makes the virtual environment")
        }
        let body = Self.texts.joined(separator: "\n") + "\n.\nend\n"
        let html = "<p>\(Self.texts[1])</p>\n"
        for (subject, name) in [(Self.texts[0], "研究チーム"), (Self.texts[5], "Recover Study"), (Self.texts[4], "Équipe \"Recover\"")] {
            let message = try message(subject: subject, displayName: name, text: body, html: html)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString).eml")
            try Data(message.rendered()).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let output = try await run(python.path, ["-c", """
                import email, email.policy, json, sys
                message = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
                text = message.get_body(("plain",)).get_content().replace("\\r\\n", "\\n")
                html = message.get_body(("html",)).get_content().replace("\\r\\n", "\\n")
                defects = [str(d) for part in message.walk() for d in part.defects]
                print(json.dumps({"subject": str(message["subject"]), "name": message["from"].addresses[0].display_name,
                                  "address": message["from"].addresses[0].addr_spec, "to": str(message["to"]),
                                  "text": text, "html": html, "defects": defects}))
                """, file.path])
            let read = try JSONDecoder().decode([String: JSONValue].self, from: Data(output.utf8))
            #expect(read["subject"] == .string(subject))
            #expect(read["name"] == .string(name))
            #expect(read["address"] == .string("reminders@study.example.org"))
            #expect(read["to"] == .string("participant@example.com"))
            #expect(read["text"] == .string(body))
            #expect(read["html"] == .string(html))
            #expect(read["defects"] == .array([]))
        }
    }
}

/// A JSON value as Python printed it.
enum JSONValue: Decodable, Equatable {
    case string(String)
    case array([JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) { self = .string(string) } else { self = .array(try container.decode([JSONValue].self)) }
    }
}
