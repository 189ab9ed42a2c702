import Foundation

/// JSON text read exactly as written: numbers keep their text, object members their order, and nothing is dropped
/// or merged. Read it with ``init(data:)``, which refuses anything two JSON readers could read differently (a member
/// name given twice, content after the value).
///
/// ```swift
/// let tree = try JSONTree(data: Data(#"{"sharing": "shareWidely"}"#.utf8))
/// tree["sharing"]   // .string("shareWidely")
/// ```
public enum JSONTree: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its text (`12`, `-0.5`, `1e-7`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONTree])
    /// An object's members in the order written; no two have the same key.
    case object([Member])

    /// One member of an object.
    public struct Member: Hashable, Sendable {
        /// The member's name.
        public var key: String
        /// Its value.
        public var value: JSONTree

        /// A member named `key`.
        public init(key: String, value: JSONTree) {
            self.key = key
            self.value = value
        }
    }

    /// Parses one JSON value (with whitespace around it and nothing else) from UTF-8 data.
    ///
    /// - Throws: ``JSONSyntaxError`` naming the path, line, column and byte offset of the first problem.
    public init(data: Data) throws(JSONSyntaxError) {
        var parser = JSONTreeParser(bytes: Array(data))
        self = try parser.parseDocument()
    }

    /// The value of the member named `key` when this is an object that has one.
    public subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// JSON text that ``JSONTree`` refused, with where the problem is.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, such as `the member name "sharing" is given twice`.
    public var message: String
    /// The path of the value being read, such as `record.answers` (empty at the top).
    public var path: String
    /// The byte offset (from 0) into the UTF-8 text.
    public var offset: Int
    /// The line (from 1).
    public var line: Int
    /// The column (from 1, counted in bytes).
    public var column: Int

    /// Creates an error; see the properties.
    public init(message: String, path: String = "", offset: Int, line: Int, column: Int) {
        self.message = message
        self.path = path
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `line 1, column 812: record.answers: the member name "sharing" is given twice`: the place first, as other
    /// readers' syntax errors are worded (`malformed JSON: line 3, column 14: …`).
    public var locatedMessage: String {
        "line \(line), column \(column): " + (path.isEmpty ? "" : "\(path): ") + message
    }

    /// `record.answers: the member name "sharing" is given twice (line 1, column 812)`.
    public var description: String {
        (path.isEmpty ? "" : "\(path): ") + "\(message) (line \(line), column \(column))"
    }
}

extension JSONTree {
    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The number as a `Double`, whatever its text (`12`, `-0.5`, `1e-7`); nil for anything but a number.
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    /// The number as an `Int` when it is written as a whole number without a fraction or exponent (`12`, `-3`);
    /// nil for `12.0`, `1e2` and anything but a number.
    public var integerValue: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text)
    }

    /// What kind of value this is, in JSON's words, for messages: "found an array".
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
