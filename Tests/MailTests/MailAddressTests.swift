import Mail
import Testing

/// ``MailAddress`` accepts the common dot-atom@host-name form and refuses, with the reason, every text that could
/// inject an SMTP command or header (control characters, line breaks), look like another address (bidirectional
/// controls, whitespace), or break a limit of RFC 5321 or 5322; the domain compares without regard to case.
@Suite("Mail addresses")
struct MailAddressTests {
    @Test(arguments: ["participant@example.com", "Ada.Lovelace+study@Mail.Example.ORG", "a@b", "x!#$%&'*+-/=?^_`{|}~@xn--bcher-kva.example",
                      "first.middle.last@sub-domain.example.co.uk", "1234@123.example"])
    func commonAddressesAreAccepted(_ text: String) throws {
        let address = try MailAddress(text)
        #expect(address.description == text)
        #expect(address.localPart + "@" + address.domain == text)
    }

    @Test func theDomainComparesWithoutRegardToCaseAndTheLocalPartWithIt() throws {
        let address = try MailAddress("Ada.Lovelace@Example.ORG")
        #expect(address.normalized == "Ada.Lovelace@example.org")
        #expect(address == (try MailAddress("Ada.Lovelace@example.org")))
        #expect(Set([address, try MailAddress("Ada.Lovelace@EXAMPLE.org")]).count == 1)
        #expect(address != (try MailAddress("ada.lovelace@example.org")))
    }

    @Test(arguments: [
        ("a\r\n@example.com", MailAddressError.controlCharacter("\r")),
        ("a@example.com\r\nRCPT TO:<victim@example.com>", .controlCharacter("\r")),
        ("a\n@example.com", .controlCharacter("\n")),
        ("a\0b@example.com", .controlCharacter("\0")),
        ("a\tb@example.com", .controlCharacter("\t")),
        ("a\u{7F}@example.com", .controlCharacter("\u{7F}")),
        ("a\u{85}@example.com", .controlCharacter("\u{85}")),
        ("moc.elpmaxe\u{202E}@example.com", .bidirectionalControl("\u{202E}")),
        ("a\u{200F}@example.com", .bidirectionalControl("\u{200F}")),
        ("a@exa\u{2066}mple.com", .bidirectionalControl("\u{2066}")),
        ("a b@example.com", .whitespace),
        (" a@example.com", .whitespace),
        ("a@example.com ", .whitespace),
        ("a\u{A0}@example.com", .whitespace),
        ("a\u{3000}@example.com", .whitespace),
        ("", .empty),
        ("example.com", .missingAtSign),
        ("a@b@example.com", .multipleAtSigns),
        ("a@@example.com", .multipleAtSigns),
        ("@example.com", .emptyLocalPart),
        ("a@", .emptyDomain),
        ("\"a b\"@example.com", .whitespace),
        ("\"ab\"@example.com", .invalidLocalPartCharacter("\"")),
        ("a(comment)@example.com", .invalidLocalPartCharacter("(")),
        ("a,b@example.com", .invalidLocalPartCharacter(",")),
        ("jösé@example.com", .invalidLocalPartCharacter("ö")),
        ("a\u{200B}b@example.com", .invalidLocalPartCharacter("\u{200B}")),
        (".a@example.com", .misplacedDotInLocalPart),
        ("a.@example.com", .misplacedDotInLocalPart),
        ("a..b@example.com", .misplacedDotInLocalPart),
        ("a@.example.com", .emptyDomainLabel),
        ("a@example.com.", .emptyDomainLabel),
        ("a@example..com", .emptyDomainLabel),
        ("a@exa_mple.com", .invalidDomainCharacter("_")),
        ("a@[192.0.2.1]", .invalidDomainCharacter("[")),
        ("a@bücher.example", .invalidDomainCharacter("ü")),
        ("a@-example.com", .hyphenAtDomainLabelEdge(label: "-example")),
        ("a@example-.com", .hyphenAtDomainLabelEdge(label: "example-")),
    ] as [(String, MailAddressError)])
    func eachProblemIsRefusedWithItsReason(_ text: String, _ expected: MailAddressError) {
        #expect(throws: expected) { try MailAddress(text) }
    }

    @Test func lengthLimitsAreRefused() {
        let label63 = String(repeating: "d", count: 63)
        // 2 KB: too long a local part, or too long a domain.
        #expect(throws: MailAddressError.localPartTooLong(length: 1024)) {
            try MailAddress(String(repeating: "a", count: 1024) + "@" + String(repeating: "b", count: 1023))
        }
        #expect(throws: MailAddressError.domainTooLong(length: 2046)) { try MailAddress("a@" + String(repeating: "b", count: 2046)) }
        #expect(throws: MailAddressError.controlCharacter("\r")) { try MailAddress(String(repeating: "a", count: 2048) + "\r\n@example.com") }
        #expect(throws: MailAddressError.localPartTooLong(length: 65)) { try MailAddress(String(repeating: "a", count: 65) + "@example.com") }
        #expect(throws: MailAddressError.domainLabelTooLong(label: label63 + "d")) { try MailAddress("a@\(label63)d.example") }
        // 64 + 1 + 189 = 254 characters: the longest address.
        let domain189 = [label63, label63, String(repeating: "e", count: 61)].joined(separator: ".")
        #expect(throws: Never.self) { try MailAddress(String(repeating: "a", count: 64) + "@" + domain189) }
        // Each part within its limit, the whole over 254.
        let domain253 = [label63, label63, label63, String(repeating: "e", count: 61)].joined(separator: ".")
        #expect(throws: MailAddressError.tooLong(length: 255)) { try MailAddress("a@" + domain253) }
        #expect(throws: MailAddressError.domainTooLong(length: 254)) { try MailAddress("a@" + domain253 + "e") }
    }

    @Test func everyErrorSaysWhatWasWrongInASentence() {
        let errors: [MailAddressError] = [
            .empty, .controlCharacter("\r"), .bidirectionalControl("\u{202E}"), .whitespace, .tooLong(length: 300), .missingAtSign,
            .multipleAtSigns, .emptyLocalPart, .emptyDomain, .localPartTooLong(length: 70), .domainTooLong(length: 260),
            .invalidLocalPartCharacter("("), .misplacedDotInLocalPart, .emptyDomainLabel, .invalidDomainCharacter("_"),
            .hyphenAtDomainLabelEdge(label: "-a"), .domainLabelTooLong(label: String(repeating: "x", count: 64)),
        ]
        for error in errors {
            #expect(error.description.hasPrefix("The ") && error.description.hasSuffix("."), "\(error)")
        }
        #expect(MailAddressError.controlCharacter("\r").description.contains("U+000D"))
        #expect(Set(errors.map(\.description)).count == errors.count)
    }
}
