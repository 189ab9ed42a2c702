/// A code from a standard terminology that says what a task's outcome value means, so that exports can carry it:
/// the pain check's answer is LOINC 72514-3.
///
/// In `study.yaml`, on a task or on one of its outcome entries:
/// `code: {system: "http://loinc.org", code: "72514-3", display: "Pain severity - 0-10 verbal numeric rating [Score] - Reported"}`.
/// The loader checks that `system` is a URI and, for LOINC, that the code's check digit is right. It is the coding
/// the FHIR export writes, as it is.
public struct StudyCoding: Hashable, Sendable {
    /// The code system's URI, such as `http://loinc.org`.
    public var system: String
    /// The code, such as `72514-3`.
    public var code: String
    /// The code's name in the code system, for people; nil to leave it out.
    public var display: String?

    /// Creates a coding.
    public init(system: String, code: String, display: String? = nil) {
        self.system = system
        self.code = code
        self.display = display
    }
}

extension StudyCoding {
    /// LOINC's code system URI.
    public static let loincSystem = "http://loinc.org"

    /// Whether `code` is a well-formed LOINC code: one to seven digits, a hyphen and the right mod-10 check digit
    /// (`72514-3`).
    public static func isValidLOINC(_ code: String) -> Bool {
        guard let digits = loincDigits(code) else { return false }
        return loincCheckDigit(digits.body) == digits.check
    }

    /// The check digit a LOINC code with these digits before the hyphen must have; nil when `body` is not 1 to 7 digits.
    public static func loincCheckDigit(of body: String) -> Int? {
        guard (1...7).contains(body.count), body.allSatisfy(\.isASCIIDigit) else { return nil }
        return loincCheckDigit(body.compactMap(\.wholeNumberValue))
    }

    private static func loincDigits(_ code: String) -> (body: [Int], check: Int)? {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...7).contains(parts[0].count), parts[1].count == 1,
              parts[0].allSatisfy(\.isASCIIDigit), let check = parts[1].first?.wholeNumberValue, parts[1].first!.isASCII else { return nil }
        return (parts[0].compactMap(\.wholeNumberValue), check)
    }

    /// LOINC's mod-10 (Luhn) check digit: from the right, every other digit doubled (starting with the rightmost),
    /// the digits of the results summed, and the distance to the next multiple of ten.
    private static func loincCheckDigit(_ digits: [Int]) -> Int {
        var sum = 0
        for (position, digit) in digits.reversed().enumerated() {
            let value = position % 2 == 0 ? digit * 2 : digit
            sum += value / 10 + value % 10
        }
        return (10 - sum % 10) % 10
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
