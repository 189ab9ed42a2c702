import Foundation

/// `toInteger()`, `toDecimal()`, `toString()` and `toBoolean()` on one item; nil (an empty result) when the
/// item does not convert.
enum FHIRPathConversions {
    static func convert(_ value: FHIRPathValue, with function: String) -> FHIRPathValue? {
        let primitive = FHIRPathOperations.primitive(value)
        switch function {
        case "toInteger": return toInteger(primitive)
        case "toDecimal": return toDecimal(primitive)
        case "toBoolean": return toBoolean(primitive)
        default: return string(of: primitive).map { .string($0) }
        }
    }

    private static func toInteger(_ value: FHIRPathValue) -> FHIRPathValue? {
        switch value {
        case .integer: return value
        case .boolean(let boolean): return .integer(boolean ? 1 : 0)
        case .string(let text):
            guard text.wholeMatch(of: /[+-]?[0-9]+/) != nil, let integer = Int(text) else { return nil }
            return .integer(integer)
        default: return nil
        }
    }

    private static func toDecimal(_ value: FHIRPathValue) -> FHIRPathValue? {
        switch value {
        case .integer(let integer): return .decimal(Decimal(integer))
        case .decimal: return value
        case .boolean(let boolean): return .decimal(boolean ? 1 : 0)
        case .string(let text):
            guard text.wholeMatch(of: /[+-]?[0-9]+(\.[0-9]+)?/) != nil,
                let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            else { return nil }
            return .decimal(decimal)
        default: return nil
        }
    }

    private static func toBoolean(_ value: FHIRPathValue) -> FHIRPathValue? {
        switch value {
        case .boolean: return value
        case .integer(let integer): return integer == 1 ? .boolean(true) : integer == 0 ? .boolean(false) : nil
        case .decimal(let decimal): return decimal == 1 ? .boolean(true) : decimal == 0 ? .boolean(false) : nil
        case .string(let text):
            switch text.lowercased() {
            case "true", "t", "yes", "y", "1", "1.0": return .boolean(true)
            case "false", "f", "no", "n", "0", "0.0": return .boolean(false)
            default: return nil
            }
        default: return nil
        }
    }

    /// The text of a system value as `toString()` gives it; nil for elements that are not primitives.
    static func string(of value: FHIRPathValue) -> String? {
        switch value {
        case .string(let text): text
        case .integer(let integer): String(integer)
        case .decimal(let decimal): decimal.description
        case .boolean(let boolean): boolean ? "true" : "false"
        case .date(let temporal), .dateTime(let temporal), .time(let temporal): temporal.text
        case .quantity(let quantity): quantity.description
        case .node: nil
        }
    }
}
