import Foundation
import JSONDiagnostics

/// Reads typed values out of a ``DocumentValue`` tree of one file, collecting a ``StudyProblem`` for every fault
/// instead of stopping at the first: wrong types, missing required keys, and keys the reader does not know (with a
/// "did you mean").
struct DocumentReader {
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
    mutating func object(_ value: DocumentValue?, path: String, known: [String], required: [String] = []) -> [(key: String, value: DocumentValue)]? {
        guard let value else { return nil }
        guard case .object(let pairs) = value else {
            report(path, "expected a mapping of \(known.prefix(4).joined(separator: ", "))…, found \(value.kindDescription)")
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
    mutating func string(_ value: DocumentValue?, path: String, allowEmpty: Bool = false) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            report(path, "expected text, found \(value.kindDescription)")
            return nil
        }
        if !allowEmpty, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            report(path, "must not be empty")
            return nil
        }
        return text
    }

    /// The text of a scalar at `path`, written as text or a number (a time such as `08:00` either way).
    mutating func scalarText(_ value: DocumentValue?, path: String) -> String? {
        switch value {
        case nil: return nil
        case .string(let text): return text
        case .number(_, let text): return text
        case .some(let other):
            report(path, "expected text, found \(other.kindDescription)")
            return nil
        }
    }

    /// A whole number at `path` within `range`; nil (reported unless missing) otherwise.
    mutating func integer(_ value: DocumentValue?, path: String, in range: ClosedRange<Int>? = nil) -> Int? {
        guard let value else { return nil }
        guard case .number(let number, _) = value, number == number.rounded(), abs(number) < 1e15 else {
            report(path, "expected a whole number, found \(value.kindDescription)")
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
    mutating func number(_ value: DocumentValue?, path: String) -> Double? {
        guard let value else { return nil }
        guard case .number(let number, _) = value else {
            report(path, "expected a number, found \(value.kindDescription)")
            return nil
        }
        return number
    }

    /// True or false at `path`; nil (reported unless missing) otherwise.
    mutating func bool(_ value: DocumentValue?, path: String) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else {
            report(path, "expected true or false, found \(value.kindDescription)")
            return nil
        }
        return flag
    }

    /// The elements of a list at `path`; nil (reported unless missing) otherwise.
    mutating func array(_ value: DocumentValue?, path: String) -> [DocumentValue]? {
        guard let value else { return nil }
        guard case .array(let values) = value else {
            report(path, "expected a list, found \(value.kindDescription)")
            return nil
        }
        return values
    }

    /// One of `allowed` at `path`, with a "did you mean" when it is close to one.
    mutating func choice(_ value: DocumentValue?, path: String, allowed: [String]) -> String? {
        guard let text = string(value, path: path) else { return nil }
        guard allowed.contains(text) else {
            let hint = JSONDiagnostics.closestKey(to: text, among: allowed).map { "; did you mean '\($0)'?" } ?? ""
            report(path, "'\(text)' is not one of \(allowed.joined(separator: ", "))\(hint)")
            return nil
        }
        return text
    }
}
