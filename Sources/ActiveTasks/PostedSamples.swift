import Foundation
import JSONDiagnostics

/// Reads a posted samples document part by part, each part named by its path in errors: an object's keys must be
/// the ones the module knows, numbers must be finite, and nothing is read twice (``JSONTree`` refuses a key given twice).
struct PostedSamples {
    /// The most bytes a posted samples document may have.
    static let maximumBytes = 1_000_000

    /// Parses `data` as one JSON object of at most `limit` bytes.
    static func document(_ data: Data, limit: Int = maximumBytes) throws(ActiveSamplesError) -> JSONTree {
        guard data.count <= limit else {
            throw ActiveSamplesError(path: "", message: "is \(data.count) bytes; samples may take at most \(limit)")
        }
        let tree: JSONTree
        do { tree = try JSONTree(data: data) } catch { throw ActiveSamplesError(path: error.path, message: error.locatedMessage) }
        guard case .object = tree else { throw ActiveSamplesError(path: "", message: "must be a JSON object, found \(tree.kindDescription)") }
        return tree
    }

    /// The members of the object at `path`, after checking that every key is in `known` and every key of `required` is there.
    static func members(_ value: JSONTree?, _ path: String, known: Set<String>, required: Set<String> = []) throws(ActiveSamplesError) -> [String: JSONTree] {
        guard case .object(let list)? = value else { throw ActiveSamplesError(path: path, message: "must be an object, found \(value?.kindDescription ?? "nothing")") }
        var members: [String: JSONTree] = [:]
        for member in list {
            guard known.contains(member.key) else {
                throw ActiveSamplesError(path: join(path, member.key), message: "is not a field of these samples (known: \(known.sorted().joined(separator: ", ")))")
            }
            members[member.key] = member.value
        }
        if let missing = required.subtracting(members.keys).sorted().first {
            throw ActiveSamplesError(path: join(path, missing), message: "is missing")
        }
        return members
    }

    /// The finite number at `path`, between `range`'s bounds.
    static func number(_ value: JSONTree?, _ path: String, in range: ClosedRange<Double>) throws(ActiveSamplesError) -> Double {
        guard let number = value?.doubleValue, number.isFinite else {
            throw ActiveSamplesError(path: path, message: "must be a number, found \(value?.kindDescription ?? "nothing")")
        }
        guard range.contains(number) else {
            throw ActiveSamplesError(path: path, message: "must be between \(text(range.lowerBound)) and \(text(range.upperBound)) (\(text(number)))")
        }
        return number
    }

    /// The elements of the array at `path`, at most `limit` of them.
    static func array(_ value: JSONTree?, _ path: String, limit: Int) throws(ActiveSamplesError) -> [JSONTree] {
        guard case .array(let elements)? = value else { throw ActiveSamplesError(path: path, message: "must be an array, found \(value?.kindDescription ?? "nothing")") }
        guard elements.count <= limit else {
            throw ActiveSamplesError(path: path, message: "has \(elements.count) entries; this step can record at most \(limit)")
        }
        return elements
    }

    /// The boolean at `path`.
    static func bool(_ value: JSONTree?, _ path: String) throws(ActiveSamplesError) -> Bool {
        guard case .bool(let flag)? = value else { throw ActiveSamplesError(path: path, message: "must be true or false, found \(value?.kindDescription ?? "nothing")") }
        return flag
    }

    /// The string at `path`, one of `allowed`.
    static func choice(_ value: JSONTree?, _ path: String, among allowed: [String]) throws(ActiveSamplesError) -> String {
        guard case .string(let text)? = value else { throw ActiveSamplesError(path: path, message: "must be a string, found \(value?.kindDescription ?? "nothing")") }
        guard allowed.contains(text) else {
            throw ActiveSamplesError(path: path, message: "is '\(text)'; expected one of \(allowed.joined(separator: ", "))")
        }
        return text
    }

    /// Pixels a position may lie outside the area or a rectangle, for rounding.
    static let tolerance = 1.0

    /// The size of a step's area at `path`: `{width, height}` in CSS pixels.
    static func size(_ value: JSONTree?, _ path: String) throws(ActiveSamplesError) -> TappingSamples.Size {
        let fields = try members(value, path, known: ["width", "height"], required: ["width", "height"])
        return TappingSamples.Size(width: try number(fields["width"], "\(path).width", in: 1...20_000),
                                   height: try number(fields["height"], "\(path).height", in: 1...20_000))
    }

    /// The rectangle at `path`, `{x, y, width, height}`, which must lie in an area of `size`.
    static func rect(_ value: JSONTree?, _ path: String, in size: TappingSamples.Size) throws(ActiveSamplesError) -> TappingSamples.Rect {
        let fields = try members(value, path, known: ["x", "y", "width", "height"], required: ["x", "y", "width", "height"])
        let rect = TappingSamples.Rect(x: try number(fields["x"], "\(path).x", in: -tolerance...size.width),
                                       y: try number(fields["y"], "\(path).y", in: -tolerance...size.height),
                                       width: try number(fields["width"], "\(path).width", in: 1...size.width + tolerance),
                                       height: try number(fields["height"], "\(path).height", in: 1...size.height + tolerance))
        guard rect.x + rect.width <= size.width + tolerance, rect.y + rect.height <= size.height + tolerance else {
            throw ActiveSamplesError(path: path, message: "reaches outside the area (\(text(size.width)) × \(text(size.height)))")
        }
        return rect
    }

    /// The point at `path`, `{x, y}`, which must lie in an area of `size`.
    static func point(_ value: JSONTree?, _ path: String, in size: TappingSamples.Size) throws(ActiveSamplesError) -> TappingSamples.Point {
        let fields = try members(value, path, known: ["x", "y"], required: ["x", "y"])
        return TappingSamples.Point(x: try number(fields["x"], "\(path).x", in: -tolerance...size.width + tolerance),
                                    y: try number(fields["y"], "\(path).y", in: -tolerance...size.height + tolerance))
    }

    /// The number at `path`, or nil when it is `null`.
    static func optionalNumber(_ value: JSONTree?, _ path: String, in range: ClosedRange<Double>) throws(ActiveSamplesError) -> Double? {
        if value?.isNull == true { return nil }
        return try number(value, path, in: range)
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A number as short text for messages (`2`, `0.5`).
    static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
