import Foundation
import JSONDiagnostics
import Yams

/// A YAML or JSON document as a tree that keeps key order and the text of every scalar, so that both file forms
/// of a study are read by the same code and a time such as `9:30` stays text (YAML 1.1 would read it as the
/// sexagesimal number 570).
///
/// Plain YAML scalars are typed by YAML 1.2's core schema only: `null`/`~`/empty, `true`/`false`, decimal integers
/// and floats; everything else, and every quoted scalar, is text.
enum DocumentValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number with the text it was written as.
    case number(Double, text: String)
    case string(String)
    case array([DocumentValue])
    /// Key–value pairs in file order.
    case object([(key: String, value: DocumentValue)])

    static func == (lhs: DocumentValue, rhs: DocumentValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a, _), .number(let b, _)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value, _): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let pairs):
            for pair in pairs {
                hasher.combine(pair.key)
                hasher.combine(pair.value)
            }
        }
    }

    /// What the value is, for messages: "a string", "a list".
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "a mapping"
        }
    }

    /// The value for `key` of an object; nil for a missing key or a non-object.
    subscript(key: String) -> DocumentValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The value as JSON-compatible Foundation objects, for handing a part of a document to a JSON reader.
    var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .number(let value, let text): Int(text).map { $0 as Any } ?? value
        case .string(let value): value
        case .array(let values): values.map(\.foundationObject)
        case .object(let pairs): Dictionary(pairs.map { ($0.key, $0.value.foundationObject) }, uniquingKeysWith: { first, _ in first })
        }
    }

    // MARK: - Parsing

    /// The most values (scalars, sequences and mappings) a YAML document may expand to. A YAML alias (`*name`) repeats
    /// the node its anchor names, so a few lines of nested aliases can stand for billions of values; a study file has
    /// hundreds.
    static let maximumYAMLValues = 100_000

    /// Reads YAML text; the error names the line and column of a syntax fault, and a document that expands to more
    /// than ``maximumYAMLValues`` values (aliases repeating aliases) is refused before it is expanded.
    static func parseYAML(_ text: String) throws(DocumentSyntaxError) -> DocumentValue {
        if let line = aliasKeyLine(in: text) {
            throw DocumentSyntaxError(message: "line \(line): a mapping key that is an alias or a complex key (?) in a document with aliases "
                + "is refused: comparing such keys repeats whatever the alias names, without limit")
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
            // Yams's own message quotes the whole mapping, which for a study file is the whole file.
            let key = duplicates.sorted().first ?? ""
            throw DocumentSyntaxError(message: "\(key): the key appears twice (lines \(lines(ofKey: key, in: text).map(String.init).joined(separator: ", "))) "
                + "in the mapping that starts at line \(context.mark.line)")
        } catch let error as YamlError {
            throw DocumentSyntaxError(message: "malformed YAML: \(describe(error))")
        } catch {
            throw DocumentSyntaxError(message: "malformed YAML: \(error)")
        }
        guard let node else { return .null }
        var budget = maximumYAMLValues
        return try value(of: node, path: "", budget: &budget)
    }

    /// The line (from 1) of the first mapping key that is an alias (`*a: 1`) or an explicit complex key (`? …`), in a
    /// document that uses aliases at all; nil otherwise. Yams compares the keys of each mapping while composing, which
    /// expands an alias used as a key in full before ``maximumYAMLValues`` can count anything, so such keys are refused
    /// from the text. No study file needs them; plain keys, and aliases as values, stay allowed.
    static func aliasKeyLine(in text: String) -> Int? {
        guard text.contains("*"), text.firstMatch(of: /(?m)(^|[\s\[{,:?-])\*[^\s,\[\]{}]/) != nil else { return nil }
        guard let match = text.firstMatch(of: /(?m)((^|[\s\[{,?])\*[^\s,\[\]{}:]+[ \t]*:(\s|$))|((^|[\s\[{,])\?([ \t]|$))/) else {
            return nil
        }
        // The match may begin with the line break before the key.
        return text[..<match.range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 } + (match.output.0.first?.isNewline == true ? 1 : 0)
    }

    /// Reads JSON data; the error names the line and column of a syntax fault, and of a member name given twice in
    /// one object (which JSON readers resolve differently: one keeps the first, another the last).
    static func parseJSON(_ data: Data) throws(DocumentSyntaxError) -> DocumentValue {
        do {
            return DocumentValue(try JSONTree(data: data))
        } catch {
            throw DocumentSyntaxError(message: "malformed JSON: \(error)")
        }
    }

    private static func value(of node: Node, path: String, budget: inout Int) throws(DocumentSyntaxError) -> DocumentValue {
        budget -= 1
        guard budget >= 0 else {
            let line = node.mark.map { " (line \($0.line))" } ?? ""
            throw DocumentSyntaxError(message: "\(path.isEmpty ? "the document" : path)\(line): the document expands to more than "
                + "\(maximumYAMLValues) values; YAML aliases (*name) repeat what their anchor names, and nested ones multiply")
        }
        switch node {
        case .scalar(let scalar):
            return scalarValue(scalar)
        case .sequence(let sequence):
            var values: [DocumentValue] = []
            for (index, element) in sequence.enumerated() {
                values.append(try value(of: element, path: "\(path)[\(index)]", budget: &budget))
            }
            return .array(values)
        case .mapping(let mapping):
            var pairs: [(key: String, value: DocumentValue)] = []
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw DocumentSyntaxError(message: "\(path.isEmpty ? "the document" : path): a mapping key must be text")
                }
                let key = keyScalar.string
                if pairs.contains(where: { $0.key == key }) {
                    let line = keyNode.mark.map { " (line \($0.line))" } ?? ""
                    throw DocumentSyntaxError(message: "\(path.isEmpty ? key : "\(path).\(key)"): the key appears twice\(line)")
                }
                pairs.append((key, try value(of: valueNode, path: path.isEmpty ? key : "\(path).\(key)", budget: &budget)))
            }
            return .object(pairs)
        case .alias:
            // Yams resolves aliases while composing; an alias left here has no value to give.
            throw DocumentSyntaxError(message: "\(path): YAML aliases are not supported in study files")
        }
    }

    private static func scalarValue(_ scalar: Node.Scalar) -> DocumentValue {
        let text = scalar.string
        guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if text.range(of: #"^[-+]?([0-9]+|[0-9]*\.[0-9]+|[0-9]+\.[0-9]*)([eE][-+]?[0-9]+)?$"#, options: .regularExpression) != nil,
           let number = Double(text) {
            return .number(number, text: text)
        }
        return .string(text)
    }

    /// The lines (from 1) on which `key` starts a mapping entry, as `key:` after indentation or a list's `- `.
    private static func lines(ofKey key: String, in text: String) -> [Int] {
        var found: [Int] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line.drop { $0 == " " || $0 == "\t" || $0 == "-" }
            if let quote = rest.first, quote == "'" || quote == "\"" {
                guard rest.dropFirst().hasPrefix(key), rest.dropFirst(key.count + 1).first == quote else { continue }
                rest = rest.dropFirst(key.count + 2)
            } else {
                guard rest.hasPrefix(key) else { continue }
                rest = rest.dropFirst(key.count)
            }
            if rest.drop(while: { $0 == " " || $0 == "\t" }).first == ":" { found.append(index + 1) }
        }
        return found
    }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let around = context.map { " \($0.text)" } ?? ""
            return "line \(mark.line), column \(mark.column): \(problem)\(around)"
        default:
            return "\(error)"
        }
    }
}

extension DocumentValue {
    /// The document value of JSON read exactly as written: members in their order, numbers with their text.
    init(_ tree: JSONTree) {
        switch tree {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text): self = .number(Double(text) ?? .nan, text: text)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map(DocumentValue.init))
        case .object(let members): self = .object(members.map { ($0.key, DocumentValue($0.value)) })
        }
    }
}

/// A YAML or JSON file that could not be read as a document at all.
struct DocumentSyntaxError: Error, Hashable, Sendable {
    /// What is wrong, with the line and column where the reader found it.
    var message: String
}
