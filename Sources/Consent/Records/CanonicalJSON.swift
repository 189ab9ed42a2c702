import Foundation

/// The canonical JSON that sealed consent records are signed over: the same value gives the same bytes on
/// every run and every platform.
///
/// ```swift
/// let bytes = try CanonicalJSON.bytes(of: record)   // what the Ed25519 signature covers
/// ```
///
/// The rules follow RFC 8785 (JSON Canonicalization Scheme):
/// - no whitespace anywhere;
/// - object members sorted by their keys' UTF-16 code units;
/// - strings in UTF-8 as they are (no Unicode normalization); only `"` and `\` and the control characters
///   below U+0020 are escaped: `\b \t \n \f \r` by name, the others as `\u00xx` with lowercase hex;
///   `/` and non-ASCII characters are written literally;
/// - a `Double` is written as ECMAScript's `Number.prototype.toString` writes it: the shortest digits that
///   read back as the same double, integral values without `.0` (`12`, not `12.0`), plain notation for
///   magnitudes from 1e-6 up to 1e21 (`0.000001`, `0.25`, `100000000000000000000`), exponent notation
///   outside it (`1e-7`, `1.5e+21`); `-0` is written `0`; NaN and infinities are refused;
/// - integer types (`Int`, `UInt64`, ...) are written with all their digits;
/// - a `Date` met directly is written as ISO 8601 UTC with milliseconds (``ConsentTimestamp``); consent
///   records already encode their dates that way, so the canonical form and the stored form agree;
/// - `Data` is written as base64, a `URL` as its absolute string; optionals that are nil are left out.
public enum CanonicalJSON {
    /// The canonical bytes of `value`, encoded through its `Encodable` conformance.
    public static func bytes<Value: Encodable>(of value: Value) throws -> Data {
        try bytes(of: self.value(of: value))
    }

    /// The canonical bytes of an already built value.
    public static func bytes(of value: CanonicalJSONValue) -> Data {
        var output = [UInt8]()
        write(value, to: &output)
        return Data(output)
    }

    /// The JSON value tree of `value`, as its `Encodable` conformance describes it.
    public static func value<Value: Encodable>(of value: Value) throws -> CanonicalJSONValue {
        try CanonicalJSONEncoding.encode(value)
    }

    /// A double in canonical form (see the rules above); nil for NaN and infinities, which JSON cannot hold.
    public static func numberText(_ number: Double) -> String? {
        guard number.isFinite else { return nil }
        if number == 0 { return "0" }
        // Swift's description is the shortest round-trip representation (the same digits ECMAScript picks);
        // only the layout differs, so take its digits and exponent and lay them out the ECMAScript way.
        let text = String(describing: number.magnitude)
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0]
        let exponent = parts.count == 2 ? Int(parts[1])! : 0
        var digits = Array(mantissa.filter { $0 != "." })
        var point = (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
        while digits.first == "0" { digits.removeFirst(); point -= 1 }
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count, n = point
        var result = number < 0 ? "-" : ""
        if k <= n && n <= 21 {
            result += String(digits) + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            result += String(digits[..<n]) + "." + String(digits[n...])
        } else if -6 < n && n <= 0 {
            result += "0." + String(repeating: "0", count: -n) + String(digits)
        } else {
            result += String(digits[0])
            if k > 1 { result += "." + String(digits[1...]) }
            result += "e" + (n - 1 >= 0 ? "+" : "-") + String((n - 1).magnitude)
        }
        return result
    }

    /// Writes `string` as a canonical JSON string literal, quotes included.
    public static func stringLiteral(_ string: String) -> String {
        var output = [UInt8]()
        writeString(string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func write(_ value: CanonicalJSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: Array("null".utf8))
        case .bool(let flag): output.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .number(let text): output.append(contentsOf: Array(text.utf8))
        case .string(let string): writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
            for (index, key) in keys.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(members[key]!, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, to output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case 0x5C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hex[Int(scalar.value >> 4)])
                output.append(hex[Int(scalar.value & 0xF)])
            default: output.append(contentsOf: Array(String(scalar).utf8))
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// A value that canonical JSON cannot hold, with where it was met.
public struct CanonicalJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the value the problem is, e.g. `signatures[0].strokes.strokes[2][5].x`.
    public var path: String
    /// What was wrong.
    public var reason: String
    /// "signatures[0]...x: NaN cannot be written in JSON".
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
