import Foundation

/// The FHIRPath functions beyond navigation and filtering that SDC forms use to compute values: exponents and
/// logarithms, text encodings, splitting and joining, and the subset tests.
extension FHIRPathFunctionCall {
    /// `sqrt()`, `exp()`, `ln()`, `log(base)` and `power(exponent)` on one Integer or Decimal. The result is a
    /// Decimal (an Integer for `power` of two Integers with an exponent of 0 or more), computed in `Double`
    /// and rounded to 15 significant digits; empty where the function has no real value (`(-1).sqrt()`,
    /// `0.ln()`, `(-8).power(0.5)`).
    func exponentialFunction() throws(FHIRPathError) -> FHIRPathCollection {
        try expectArguments(name == "log" || name == "power" ? 1 : 0)
        guard let base = try number(input, what: "input") else { return [] }
        var argument: (value: Decimal, isInteger: Bool)?
        if !arguments.isEmpty {
            guard let value = try number(try self.argument(0), what: "argument") else { return [] }
            argument = value
        }
        let x = NSDecimalNumber(decimal: base.value).doubleValue
        let result: Double
        switch name {
        case "sqrt": result = x.squareRoot()
        case "exp": result = Foundation.exp(x)
        case "ln": result = Foundation.log(x)
        case "log": result = Foundation.log(x) / Foundation.log(NSDecimalNumber(decimal: argument!.value).doubleValue)
        default:
            let exponent = argument!
            if base.isInteger, exponent.isInteger, exponent.value >= 0 {
                var power = 1, overflow = false
                let (integerBase, times) = (NSDecimalNumber(decimal: base.value).intValue, NSDecimalNumber(decimal: exponent.value).intValue)
                for _ in 0..<times where !overflow { (power, overflow) = power.multipliedReportingOverflow(by: integerBase) }
                return overflow ? [] : [.integer(power)]
            }
            result = Foundation.pow(x, NSDecimalNumber(decimal: exponent.value).doubleValue)
        }
        guard result.isFinite else { return [] }
        return [.decimal(Self.decimal(result))]
    }

    /// A Double as a Decimal with at most 15 significant digits, so that `16.sqrt()` is exactly 4.
    static func decimal(_ double: Double) -> Decimal {
        Decimal(string: String(format: "%.15g", double), locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(double)
    }

    /// One Integer or Decimal from `collection`, with whether it is an Integer; nil when it is empty.
    private func number(_ collection: FHIRPathCollection, what: String) throws(FHIRPathError) -> (value: Decimal, isInteger: Bool)? {
        guard let value = try FHIRPathOperations.singleton(collection, for: "\(name)()", offset: offset) else { return nil }
        switch FHIRPathOperations.primitive(value) {
        case .integer(let integer): return (Decimal(integer), true)
        case .decimal(let decimal): return (decimal, false)
        default: throw FHIRPathError(.type, "\(name)() needs a number as its \(what), got \(value.typeName)", at: offset)
        }
    }

    /// `encode(format)`, `decode(format)` (`base64`, `urlbase64`, `hex`), `escape(target)`, `unescape(target)`
    /// (`html`, `json`), `split(separator)`, `replaceMatches(regex, substitution)` on one String, and
    /// `join([separator])` on a collection of Strings. An empty input gives an empty result.
    func textFunction() throws(FHIRPathError) -> FHIRPathCollection {
        if name == "join" {
            try expectArguments(0...1)
            let separator = arguments.isEmpty ? "" : try stringArgument(0) ?? ""
            var texts: [String] = []
            for value in input {
                guard case .string(let text) = FHIRPathOperations.primitive(value) else {
                    throw FHIRPathError(.type, "join() needs Strings, got \(value.typeName)", at: offset)
                }
                texts.append(text)
            }
            return input.isEmpty ? [] : [.string(texts.joined(separator: separator))]
        }
        try expectArguments(name == "replaceMatches" ? 2 : 1)
        guard let value = try FHIRPathOperations.singleton(input, for: "\(name)()", offset: offset) else { return [] }
        guard case .string(let text) = FHIRPathOperations.primitive(value) else {
            throw FHIRPathError(.type, "\(name)() needs a String input, got \(value.typeName)", at: offset)
        }
        guard let format = try stringArgument(0) else { return [] }
        switch name {
        case "split":
            guard !format.isEmpty else { return text.map { .string(String($0)) } }
            return text.components(separatedBy: format).map { .string($0) }
        case "replaceMatches":
            guard let substitution = try stringArgument(1) else { return [] }
            let expression = try regularExpression(format)
            // FHIRPath writes groups in the substitution as $1, as NSRegularExpression's template does.
            return [.string(expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                                 withTemplate: substitution))]
        case "encode", "decode":
            guard let result = name == "encode" ? Self.encode(text, as: format) : Self.decode(text, from: format) else {
                if ["base64", "urlbase64", "hex"].contains(format) { return [] }
                throw FHIRPathError(.invalidArguments, "\(name)() knows the formats base64, urlbase64 and hex, not '\(format)'", at: offset)
            }
            return [.string(result)]
        default:
            guard format == "html" || format == "json" else {
                throw FHIRPathError(.invalidArguments, "\(name)() knows the targets html and json, not '\(format)'", at: offset)
            }
            return [.string(name == "escape" ? Self.escape(text, for: format) : Self.unescape(text, from: format))]
        }
    }

    /// `regex` compiled, or an error naming it.
    func regularExpression(_ regex: String) throws(FHIRPathError) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: regex, options: [.dotMatchesLineSeparators])
        } catch {
            throw FHIRPathError(.invalidArguments, "\(name)() got an invalid regular expression '\(regex)'", at: arguments[0].offset)
        }
    }

    private static func encode(_ text: String, as format: String) -> String? {
        let data = Data(text.utf8)
        switch format {
        case "base64": return data.base64EncodedString()
        case "urlbase64": return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        case "hex": return data.map { String(format: "%02x", $0) }.joined()
        default: return nil
        }
    }

    private static func decode(_ text: String, from format: String) -> String? {
        let data: Data?
        switch format {
        case "base64": data = Data(base64Encoded: text)
        case "urlbase64": data = Data(base64Encoded: text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/"))
        case "hex":
            let digits = Array(text.utf8)
            guard digits.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(byte)
            }
            data = Data(bytes)
        default: return nil
        }
        return data.flatMap { String(data: $0, encoding: .utf8) }
    }

    private static let htmlEntities: [(Character, String)] = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;")]

    private static func escape(_ text: String, for target: String) -> String {
        if target == "html" {
            return text.reduce(into: "") { out, character in
                out += htmlEntities.first { $0.0 == character }?.1 ?? String(character)
            }
        }
        // A JSON string's content, as the JSON writer escapes it (quotes, backslashes, control characters).
        return String(FHIRJSON.string(text).jsonString().dropFirst().dropLast())
    }

    private static func unescape(_ text: String, from target: String) -> String {
        if target == "html" {
            var out = text
            for (character, entity) in htmlEntities.reversed() { out = out.replacingOccurrences(of: entity, with: String(character)) }
            return out.replacingOccurrences(of: "&apos;", with: "'")
        }
        // A JSON string's content read by the JSON reader; text that is not one (a bare quote) stays as it is.
        return (try? FHIRJSON(string: "\"\(text)\""))?.stringValue ?? text
    }

    /// `subsetOf(other)` and `supersetOf(other)`: whether every item of one collection equals an item of the other.
    func setFunction() throws(FHIRPathError) -> FHIRPathCollection {
        try expectArguments(1)
        let other = try argument(0)
        let (smaller, larger) = name == "subsetOf" ? (input, other) : (other, input)
        return [.boolean(smaller.allSatisfy { item in larger.contains { FHIRPathOperations.isEqual(item, $0) == true } })]
    }
}
