import Foundation
import JSONDiagnostics

/// What makes a sealed record's JSON mean one thing to every reader: it must hold exactly what the record format
/// writes. Read strictly (``JSONTree``: no key given twice, nothing after the record), decoded, and written again in
/// canonical form, a record must come back as it was read: a key the format does not define (at any depth: the
/// record, a signature, its drawing, a stroke point, the withdrawal), a `null` for a value that is absent, or a value
/// written in another form (a lowercase UUID, a timestamp without milliseconds) is refused, naming its path.
///
/// Without this, `"sharing": "shareWidely", "sharing": "investigatorsOnly"` verified here, where the first value was
/// read, and meant the second to jq, Python and JavaScript, which read the last.
enum ConsentRecordFormat {
    /// Every place where `tree` (the JSON as read) differs from `expected` (the decoded record written canonically),
    /// as `path: problem` lines; empty when the record holds exactly what the format writes.
    static func problems(in tree: JSONTree, expected: CanonicalJSONValue, path: String = "") -> [String] {
        let here = path.isEmpty ? "the record file" : path
        switch (tree, expected) {
        case (.object(let members), .object(let expectedMembers)):
            var problems: [String] = []
            for member in members {
                let memberPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                guard let value = expectedMembers[member.key] else {
                    problems.append(member.value == .null
                        ? "\(memberPath): null is not written for an absent value; leave the key out"
                        : "\(memberPath): not part of the consent record format")
                    continue
                }
                problems += Self.problems(in: member.value, expected: value, path: memberPath)
            }
            let present = Set(members.map(\.key))
            for key in expectedMembers.keys.sorted() where !present.contains(key) {
                problems.append("\(path.isEmpty ? key : "\(path).\(key)"): missing")
            }
            return problems
        case (.array(let elements), .array(let expectedElements)):
            guard elements.count == expectedElements.count else {
                return ["\(here): \(elements.count) elements where the record has \(expectedElements.count)"]
            }
            return zip(elements, expectedElements).enumerated().flatMap { index, pair in
                Self.problems(in: pair.0, expected: pair.1, path: "\(path)[\(index)]")
            }
        case (.number(let text), .number(let expectedText)):
            return Double(text) == Double(expectedText) ? [] : ["\(here): \(text) reads as \(expectedText)"]
        case (.string(let text), .string(let expectedText)):
            return text == expectedText ? [] : ["\(here): \(CanonicalJSON.stringLiteral(text)) is not in the record format's form "
                + "(\(CanonicalJSON.stringLiteral(expectedText)))"]
        case (.bool(let value), .bool(let expectedValue)) where value == expectedValue:
            return []
        case (.null, .null):
            return []
        default:
            return ["\(here): not the value the record format writes here"]
        }
    }
}
