/// Why a text is not a ``MailAddress``.
public enum MailAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is empty.
    case empty
    /// The text contains a control character (CR, LF, NUL, tab, DEL or a C1 control), given here.
    case controlCharacter(Unicode.Scalar)
    /// The text contains a bidirectional formatting character (U+200E, U+202E, U+2066…), which can make an address
    /// look like another one; given here.
    case bidirectionalControl(Unicode.Scalar)
    /// The text contains whitespace (a space, a no-break space…).
    case whitespace
    /// There is no `@`.
    case missingAtSign
    /// There is more than one `@` (quoted local parts are not accepted).
    case multipleAtSigns
    /// Nothing stands before the `@`.
    case emptyLocalPart
    /// Nothing stands after the `@`.
    case emptyDomain
    /// The part before the `@` is longer than 64 characters; its length is given.
    case localPartTooLong(length: Int)
    /// The part after the `@` is longer than 253 characters; its length is given.
    case domainTooLong(length: Int)
    /// The address is longer than the 254 characters a path holds (RFC 5321 §4.5.3.1.3), though each part is within
    /// its own limit; its length is given.
    case tooLong(length: Int)
    /// The part before the `@` holds a character that is not allowed in an RFC 5322 dot-atom; given here.
    case invalidLocalPartCharacter(Unicode.Scalar)
    /// The part before the `@` starts or ends with a dot, or has two dots in a row.
    case misplacedDotInLocalPart
    /// The domain starts or ends with a dot, or has two dots in a row.
    case emptyDomainLabel
    /// The domain holds a character other than a letter, a digit, a hyphen or a dot; given here. (Internationalized
    /// domains must be given in their ASCII form, `xn--…`.)
    case invalidDomainCharacter(Unicode.Scalar)
    /// A label of the domain, given here, starts or ends with a hyphen.
    case hyphenAtDomainLabelEdge(label: String)
    /// A label of the domain, given here, is longer than 63 characters.
    case domainLabelTooLong(label: String)

    /// The problem, as a sentence for a person.
    public var description: String {
        switch self {
        case .empty: "The email address is empty."
        case .controlCharacter(let scalar): "The email address contains a control character (\(scalar.codePoint))."
        case .bidirectionalControl(let scalar):
            "The email address contains an invisible text-direction character (\(scalar.codePoint))."
        case .whitespace: "The email address contains a space or other whitespace."
        case .tooLong(let length): "The email address is \(length) characters long; at most 254 are allowed."
        case .missingAtSign: "The email address has no @."
        case .multipleAtSigns: "The email address has more than one @."
        case .emptyLocalPart: "The email address has nothing before the @."
        case .emptyDomain: "The email address has nothing after the @."
        case .localPartTooLong(let length): "The part before the @ is \(length) characters long; at most 64 are allowed."
        case .domainTooLong(let length): "The domain is \(length) characters long; at most 253 are allowed."
        case .invalidLocalPartCharacter(let scalar):
            "The part before the @ contains \(scalar.quotedForMessage), which an email address cannot have there."
        case .misplacedDotInLocalPart: "The part before the @ starts or ends with a dot, or has two dots in a row."
        case .emptyDomainLabel: "The domain starts or ends with a dot, or has two dots in a row."
        case .invalidDomainCharacter(let scalar):
            "The domain contains \(scalar.quotedForMessage); only letters, digits, hyphens and dots are allowed."
        case .hyphenAtDomainLabelEdge(let label): "The domain part \"\(label)\" starts or ends with a hyphen."
        case .domainLabelTooLong(let label): "The domain part \"\(label.prefix(20))…\" is longer than 63 characters."
        }
    }
}

extension Unicode.Scalar {
    /// `U+000D`: the scalar's code point as Unicode writes it.
    var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `"é" (U+00E9)`: the scalar shown, and named by its code point, for an error message.
    var quotedForMessage: String { "\"\(Character(self))\" (\(codePoint))" }
}
