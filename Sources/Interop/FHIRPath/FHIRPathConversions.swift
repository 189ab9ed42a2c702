import Foundation

/// `toInteger()`, `toDecimal()`, `toString()`, `toBoolean()`, `toQuantity()`, `toDate()`, `toDateTime()` and
/// `toTime()` on one item, and the `convertsTo…()` functions that ask whether they would succeed; nil (an empty
/// result) when the item does not convert.
enum FHIRPathConversions {
    /// The conversion functions, by name.
    static let functions: Set<String> = ["toInteger", "toDecimal", "toString", "toBoolean", "toQuantity", "toDate", "toDateTime", "toTime"]

    static func convert(_ value: FHIRPathValue, with function: String) -> FHIRPathValue? {
        let primitive = FHIRPathOperations.primitive(value)
        switch function {
        case "toInteger": return toInteger(primitive)
        case "toDecimal": return toDecimal(primitive)
        case "toBoolean": return toBoolean(primitive)
        case "toQuantity": return toQuantity(primitive)
        case "toDate", "toDateTime", "toTime": return toTemporal(primitive, function: function)
        default: return string(of: primitive).map { .string($0) }
        }
    }

    private static func toQuantity(_ value: FHIRPathValue) -> FHIRPathValue? {
        switch value {
        case .quantity: return value
        case .integer(let integer): return .quantity(FHIRPathQuantity(value: Decimal(integer), unit: "1"))
        case .decimal(let decimal): return .quantity(FHIRPathQuantity(value: decimal, unit: "1"))
        case .boolean(let boolean): return .quantity(FHIRPathQuantity(value: boolean ? 1 : 0, unit: "1"))
        case .string(let text):
            // A number, then optionally a UCUM unit in quotes or a calendar word: `1.5`, `4 'mg'`, `1 day`.
            guard let match = text.wholeMatch(of: /([+-]?[0-9]+(?:\.[0-9]+)?)(?: *'([^']+)'| +([a-z]+))?/),
                let amount = Decimal(string: String(match.1), locale: Locale(identifier: "en_US_POSIX"))
            else { return nil }
            if let word = match.3 {
                guard FHIRPathQuantity.calendarWords.contains(String(word)) else { return nil }
                return .quantity(FHIRPathQuantity(value: amount, unit: String(word)))
            }
            return .quantity(FHIRPathQuantity(value: amount, unit: match.2.map(String.init) ?? "1"))
        default: return nil
        }
    }

    private static func toTemporal(_ value: FHIRPathValue, function: String) -> FHIRPathValue? {
        switch (function, value) {
        case ("toDate", .date), ("toDateTime", .dateTime), ("toTime", .time): return value
        case ("toDate", .dateTime(let dateTime)):
            return FHIRPathTemporal.date(String(dateTime.text.prefix { $0 != "T" })).map { .date($0) }
        case ("toDateTime", .date(let date)): return FHIRPathTemporal.dateTime(date.text).map { .dateTime($0) }
        case ("toDate", .string(let text)): return FHIRPathTemporal.date(text).map { .date($0) }
        case ("toDateTime", .string(let text)): return FHIRPathTemporal.dateTime(text).map { .dateTime($0) }
        case ("toTime", .string(let text)): return FHIRPathTemporal.time(text).map { .time($0) }
        default: return nil
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
