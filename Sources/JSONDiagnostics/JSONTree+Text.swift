import Foundation

extension JSONTree {
    /// The tree as compact JSON text (UTF-8), exactly as it reads: members in their order, numbers as their text,
    /// strings with `"`, `\` and control characters escaped. The same tree always gives the same bytes, which
    /// `JSONEncoder` (whose objects follow a dictionary's order) does not promise.
    ///
    /// ```swift
    /// JSONTree.object([.init(key: "b", value: .number("1")), .init(key: "a", value: .null)]).jsonData
    /// // {"b":1,"a":null}
    /// ```
    public var jsonData: Data {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return Data(bytes)
    }

    private func write(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: Array("null".utf8))
        case .bool(let flag): bytes.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .number(let text): bytes.append(contentsOf: Array(text.utf8))
        case .string(let text): Self.writeString(text, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20: bytes.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
