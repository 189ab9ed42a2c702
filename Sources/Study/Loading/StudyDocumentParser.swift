import Foundation
import JSONDiagnostics
import Yams

/// Reads a study's files, YAML or JSON, into one tree type (``JSONTree``), which keeps key order and the text of every
/// scalar, so that both file forms of a study are read by the same code and a time such as `9:30` stays text (YAML
/// 1.1 would read it as the sexagesimal number 570).
///
/// Plain YAML scalars are typed by YAML 1.2's core schema only: `null`/`~`/empty, `true`/`false`, decimal integers
/// and floats; everything else, and every quoted scalar, is text.
enum StudyDocumentParser {
    /// The most values (scalars, sequences and mappings) a YAML document may expand to. A YAML alias (`*name`) repeats
    /// the node its anchor names, so a few lines of nested aliases can stand for billions of values; a study file has
    /// hundreds.
    static let maximumYAMLValues = 100_000

    /// Reads YAML text; the error names the line and column of a syntax fault, and a document that expands to more
    /// than ``maximumYAMLValues`` values (aliases repeating aliases) is refused before it is expanded.
    static func parseYAML(_ text: String) throws(DocumentSyntaxError) -> JSONTree {
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
        // A key starts a line (after its indentation, and a sequence's `- `) or follows `{`, `,` or `? `: text inside a
        // scalar, such as Markdown's `**bold**: …` in a quoted string, is not a key.
        guard let match = text.firstMatch(of: /(?m)((^[ \t]*(-[ \t]+)?|[\[{,?][ \t]*)\*[^\s,\[\]{}:]+[ \t]*:(\s|$))|((^[ \t]*(-[ \t]+)?|[\[{,][ \t]*)\?([ \t]|$))/) else {
            return nil
        }
        // The match may begin with the line break before the key.
        return text[..<match.range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 } + (match.output.0.first?.isNewline == true ? 1 : 0)
    }

    /// Reads JSON data; the error names the line and column of a syntax fault, and of a member name given twice in
    /// one object (which JSON readers resolve differently: one keeps the first, another the last).
    static func parseJSON(_ data: Data) throws(DocumentSyntaxError) -> JSONTree {
        do {
            return try JSONTree(data: data)
        } catch {
            throw DocumentSyntaxError(message: "malformed JSON: \(error)")
        }
    }

    private static func value(of node: Node, path: String, budget: inout Int) throws(DocumentSyntaxError) -> JSONTree {
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
            var values: [JSONTree] = []
            for (index, element) in sequence.enumerated() {
                values.append(try value(of: element, path: "\(path)[\(index)]", budget: &budget))
            }
            return .array(values)
        case .mapping(let mapping):
            var pairs: [JSONTree.Member] = []
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw DocumentSyntaxError(message: "\(path.isEmpty ? "the document" : path): a mapping key must be text")
                }
                let key = keyScalar.string
                if pairs.contains(where: { $0.key == key }) {
                    let line = keyNode.mark.map { " (line \($0.line))" } ?? ""
                    throw DocumentSyntaxError(message: "\(path.isEmpty ? key : "\(path).\(key)"): the key appears twice\(line)")
                }
                pairs.append(JSONTree.Member(key: key, value: try value(of: valueNode, path: path.isEmpty ? key : "\(path).\(key)", budget: &budget)))
            }
            return .object(pairs)
        case .alias:
            // Yams resolves aliases while composing; an alias left here has no value to give.
            throw DocumentSyntaxError(message: "\(path): YAML aliases are not supported in study files")
        }
    }

    private static func scalarValue(_ scalar: Node.Scalar) -> JSONTree {
        let text = scalar.string
        guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if text.range(of: #"^[-+]?([0-9]+|[0-9]*\.[0-9]+|[0-9]+\.[0-9]*)([eE][-+]?[0-9]+)?$"#, options: .regularExpression) != nil,
           Double(text) != nil {
            return .number(text)
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

/// A YAML or JSON file that could not be read as a document at all.
struct DocumentSyntaxError: Error, Hashable, Sendable {
    /// What is wrong, with the line and column where the reader found it.
    var message: String
}
