/// An email address (`local-part@domain`), checked so that it can go into an SMTP command and a mail header as it is.
///
/// Only the common, unambiguous form is accepted: an RFC 5322 dot-atom before the `@` (printable ASCII letters, digits
/// and `!#$%&'*+-/=?^_`{|}~`, with single dots between them) and a host name of letters, digits and hyphens after it
/// (internationalized domains in their `xn--` form). Quoted local parts, address literals (`[192.0.2.1]`), comments
/// and non-ASCII addresses are refused, as are control, whitespace and bidirectional formatting characters, which
/// could smuggle a command into the SMTP conversation or make one address look like another.
///
/// The domain is compared without regard to case, the local part with it (RFC 5321 §2.4):
/// ```swift
/// let address = try MailAddress("Ada.Lovelace@Example.ORG")
/// address.normalized                                   // "Ada.Lovelace@example.org"
/// address == (try MailAddress("Ada.Lovelace@example.org"))   // true
/// ```
public struct MailAddress: Hashable, Sendable, CustomStringConvertible {
    /// The part before the `@`, as given.
    public let localPart: String
    /// The part after the `@`, as given.
    public let domain: String

    /// The address of `text`, or why it is not one.
    public init(_ text: String) throws(MailAddressError) {
        guard !text.isEmpty else { throw .empty }
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control { throw .controlCharacter(scalar) }
            if Self.bidirectionalControls.contains(scalar.value) { throw .bidirectionalControl(scalar) }
            if scalar.properties.isWhitespace { throw .whitespace }
        }
        // Split on the scalar, not the Character: an @ followed by a combining mark is still an @.
        let parts = text.unicodeScalars.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count > 1 else { throw .missingAtSign }
        guard parts.count == 2 else { throw .multipleAtSigns }
        let localPart = String(String.UnicodeScalarView(parts[0])), domain = String(String.UnicodeScalarView(parts[1]))
        guard !localPart.isEmpty else { throw .emptyLocalPart }
        guard !domain.isEmpty else { throw .emptyDomain }
        guard localPart.unicodeScalars.count <= 64 else { throw .localPartTooLong(length: localPart.unicodeScalars.count) }
        guard domain.unicodeScalars.count <= 253 else { throw .domainTooLong(length: domain.unicodeScalars.count) }
        let length = text.unicodeScalars.count
        guard length <= 254 else { throw .tooLong(length: length) }
        try Self.checkLocalPart(localPart)
        try Self.checkDomain(domain)
        self.localPart = localPart
        self.domain = domain
    }

    /// The address with its domain in lower case (the local part as given, since only the receiving server may
    /// interpret its case).
    public var normalized: String { localPart + "@" + domain.lowercased() }

    /// The address as given.
    public var description: String { localPart + "@" + domain }

    /// Whether two addresses are the same: the same local part, and the same domain but for case.
    public static func == (lhs: MailAddress, rhs: MailAddress) -> Bool { lhs.normalized == rhs.normalized }

    /// Hashes the ``normalized`` address, so that addresses equal but for their domain's case hash alike.
    public func hash(into hasher: inout Hasher) { hasher.combine(normalized) }

    /// U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069: the characters that change the direction of text.
    private static let bidirectionalControls: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                                             0x2066, 0x2067, 0x2068, 0x2069]

    /// RFC 5322's atext: what a dot-atom is made of besides its dots.
    static func isAtext(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        default: "!#$%&'*+-/=?^_`{|}~".unicodeScalars.contains(scalar)
        }
    }

    private static func checkLocalPart(_ localPart: String) throws(MailAddressError) {
        if let scalar = localPart.unicodeScalars.first(where: { $0 != "." && !isAtext($0) }) {
            throw .invalidLocalPartCharacter(scalar)
        }
        guard isDotAtom(localPart) else { throw .misplacedDotInLocalPart }
    }

    /// Whether `text` is atext with single dots between, none first or last (RFC 5322 dot-atom-text); its characters
    /// are assumed to be atext or dots.
    static func isDotAtom(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix(".") && !text.hasSuffix(".") && !text.contains("..")
    }

    private static func checkDomain(_ domain: String) throws(MailAddressError) {
        for label in domain.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw .emptyDomainLabel }
            for scalar in label.unicodeScalars {
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-": continue
                default: throw .invalidDomainCharacter(scalar)
                }
            }
            guard !label.hasPrefix("-"), !label.hasSuffix("-") else { throw .hyphenAtDomainLabelEdge(label: String(label)) }
            guard label.utf8.count <= 63 else { throw .domainLabelTooLong(label: String(label)) }
        }
    }
}
