import Foundation
import JSONDiagnostics

/// Reads typed values out of the ``JSONTree`` tree of one file, collecting a ``StudyProblem`` for every fault
/// instead of stopping at the first: wrong types, missing required keys, and keys the reader does not know (with a
/// "did you mean").
struct DocumentReader {
    /// What an identifier in a study file may look like: letters, digits, `-` and `_`, starting with a letter or digit.
    static let identifierPattern = "^[A-Za-z0-9][A-Za-z0-9_-]*$"

    /// The identifier at `path`, element `index` of a list of `kind`s at `list`: reported when it does not match
    /// ``identifierPattern``, or when `seen` (identifier → first index) has it already; returned either way.
    mutating func identifier(_ value: JSONTree?, path: String, index: Int, seen: inout [String: Int], kind: String, list: String) -> String? {
        guard let id = string(value, path: path) else { return nil }
        if id.range(of: Self.identifierPattern, options: .regularExpression) == nil {
            report(path, "'\(id)' may hold only letters, digits, '-' and '_', starting with a letter or digit")
        } else if let earlier = seen[id] {
            report(path, "duplicate \(kind) id '\(id)' (also \(list)[\(earlier)])")
        }
        seen[id] = seen[id] ?? index
        return id
    }

    /// The file being read, relative to the study folder.
    let file: String
    /// Every problem found so far.
    var problems: [StudyProblem] = []

    init(file: String) { self.file = file }

    mutating func report(_ path: String, _ message: String) {
        problems.append(StudyProblem(file: file, path: path, message: message))
    }

    /// `base.key`, or `key` at the top.
    static func join(_ base: String, _ key: String) -> String { base.isEmpty ? key : "\(base).\(key)" }

    /// The pairs of a mapping, after reporting every key not in `known` and every key of `required` that is missing;
    /// nil (reported) when the value is not a mapping.
    mutating func object(_ value: JSONTree?, path: String, known: [String], required: [String] = []) -> [JSONTree.Member]? {
        guard let value else { return nil }
        guard case .object(let pairs) = value else {
            report(path, "expected a mapping of \(known.prefix(4).joined(separator: ", "))…, found \(Self.kind(of: value))")
            return nil
        }
        for pair in pairs where !known.contains(pair.key) {
            let hint = JSONDiagnostics.closestKey(to: pair.key, among: known).map { "; did you mean '\($0)'?" } ?? ""
            report(Self.join(path, pair.key), "unknown key '\(pair.key)'\(hint) (known keys: \(known.joined(separator: ", ")))")
        }
        for key in required where !pairs.contains(where: { $0.key == key }) {
            report(Self.join(path, key), "is required but missing")
        }
        return pairs
    }

    /// Text at `path`; nil (reported unless missing) for anything else. Numbers are not taken as text.
    mutating func string(_ value: JSONTree?, path: String, allowEmpty: Bool = false) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            report(path, "expected text, found \(Self.kind(of: value))")
            return nil
        }
        if !allowEmpty, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            report(path, "must not be empty")
            return nil
        }
        return text
    }

    /// The text of a scalar at `path`, written as text or a number (a time such as `08:00` either way).
    mutating func scalarText(_ value: JSONTree?, path: String) -> String? {
        switch value {
        case nil: return nil
        case .string(let text): return text
        case .number(let text): return text
        case .some(let other):
            report(path, "expected text, found \(Self.kind(of: other))")
            return nil
        }
    }

    /// A whole number at `path` within `range`; nil (reported unless missing) otherwise.
    mutating func integer(_ value: JSONTree?, path: String, in range: ClosedRange<Int>? = nil) -> Int? {
        guard let value else { return nil }
        guard let number = value.doubleValue, number == number.rounded(), abs(number) < 1e15 else {
            report(path, "expected a whole number, found \(Self.kind(of: value))")
            return nil
        }
        let integer = Int(number)
        if let range, !range.contains(integer) {
            report(path, "must be from \(range.lowerBound) to \(range.upperBound) (found \(integer))")
            return nil
        }
        return integer
    }

    /// A number at `path`; nil (reported unless missing) otherwise.
    mutating func number(_ value: JSONTree?, path: String) -> Double? {
        guard let value else { return nil }
        guard let number = value.doubleValue else {
            report(path, "expected a number, found \(Self.kind(of: value))")
            return nil
        }
        return number
    }

    /// True or false at `path`; nil (reported unless missing) otherwise.
    mutating func bool(_ value: JSONTree?, path: String) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else {
            report(path, "expected true or false, found \(Self.kind(of: value))")
            return nil
        }
        return flag
    }

    /// The elements of a list at `path`; nil (reported unless missing) otherwise.
    mutating func array(_ value: JSONTree?, path: String) -> [JSONTree]? {
        guard let value else { return nil }
        guard case .array(let values) = value else {
            report(path, "expected a list, found \(Self.kind(of: value))")
            return nil
        }
        return values
    }

    /// What a value is, in the words of a study file's authors, who write YAML: "text", "a list", "a mapping".
    static func kind(of value: JSONTree) -> String {
        switch value {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "a mapping"
        }
    }

    /// One of `allowed` at `path`, with a "did you mean" when it is close to one.
    mutating func choice(_ value: JSONTree?, path: String, allowed: [String]) -> String? {
        guard let text = string(value, path: path) else { return nil }
        guard allowed.contains(text) else {
            let hint = JSONDiagnostics.closestKey(to: text, among: allowed).map { "; did you mean '\($0)'?" } ?? ""
            report(path, "'\(text)' is not one of \(allowed.joined(separator: ", "))\(hint)")
            return nil
        }
        return text
    }
}
