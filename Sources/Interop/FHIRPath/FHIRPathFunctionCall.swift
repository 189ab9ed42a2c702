import Foundation

/// One call of a FHIRPath function while it is evaluated: its input, its unevaluated arguments, and the
/// helpers functions share to check and evaluate them.
struct FHIRPathFunctionCall {
    let evaluator: FHIRPathEvaluator
    let name: String
    let input: FHIRPathCollection
    let arguments: [FHIRPathSyntax]
    let scope: FHIRPathEvaluator.Scope
    let offset: Int

    // MARK: Arguments

    func expectArguments(_ count: Int) throws(FHIRPathError) {
        try expectArguments(count...count)
    }

    func expectArguments(_ counts: ClosedRange<Int>) throws(FHIRPathError) {
        guard counts.contains(arguments.count) else {
            let expected = counts.lowerBound == counts.upperBound ? "\(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)"
            throw FHIRPathError(
                .invalidArguments, "\(name)() takes \(expected) argument\(counts.upperBound == 1 ? "" : "s"), got \(arguments.count)",
                at: offset
            )
        }
    }

    /// Argument `index` evaluated in the scope of the call.
    func argument(_ index: Int) throws(FHIRPathError) -> FHIRPathCollection {
        try evaluator.evaluate(arguments[index], in: scope)
    }

    /// Argument `index` as one Integer; nil when it is empty.
    func integerArgument(_ index: Int) throws(FHIRPathError) -> Int? {
        guard let value = try FHIRPathOperations.singleton(try argument(index), for: "\(name)()", offset: arguments[index].offset) else {
            return nil
        }
        guard case .integer(let integer) = FHIRPathOperations.primitive(value) else {
            throw FHIRPathError(.invalidArguments, "\(name)() needs an Integer argument, got \(value.typeName)", at: arguments[index].offset)
        }
        return integer
    }

    /// Argument `index` as one String; nil when it is empty.
    func stringArgument(_ index: Int) throws(FHIRPathError) -> String? {
        guard let value = try FHIRPathOperations.singleton(try argument(index), for: "\(name)()", offset: arguments[index].offset) else {
            return nil
        }
        guard case .string(let text) = FHIRPathOperations.primitive(value) else {
            throw FHIRPathError(.invalidArguments, "\(name)() needs a String argument, got \(value.typeName)", at: arguments[index].offset)
        }
        return text
    }

    /// A type name written as an argument (`ofType(Coding)`, `is(System.Integer)`).
    func typeName(_ syntax: FHIRPathSyntax) throws(FHIRPathError) -> String {
        switch syntax {
        case .member(nil, let name, _): return name
        case .member(.member(nil, let namespace, _)?, let name, _): return "\(namespace).\(name)"
        default: throw FHIRPathError(.invalidArguments, "\(name)() needs a type name such as Coding or System.Integer", at: syntax.offset)
        }
    }

    /// The input items as Booleans (for `allTrue()` and the like); an error for any other item.
    func booleans() throws(FHIRPathError) -> [Bool] {
        var result: [Bool] = []
        for value in input {
            guard case .boolean(let boolean) = FHIRPathOperations.primitive(value) else {
                throw FHIRPathError(.type, "\(name)() needs Booleans, got \(value.typeName)", at: offset)
            }
            result.append(boolean)
        }
        return result
    }

    // MARK: Iteration

    /// The input items for which `criteria` is true.
    func filter(_ criteria: FHIRPathSyntax) throws(FHIRPathError) -> FHIRPathCollection {
        var result: FHIRPathCollection = []
        for (index, item) in input.enumerated() {
            let outcome = try evaluator.evaluate(criteria, in: FHIRPathEvaluator.Scope(this: [item], index: index, total: scope.total))
            if try FHIRPathOperations.boolean(outcome, for: "\(name)()", offset: criteria.offset) == true { result.append(item) }
        }
        return result
    }

    /// `repeat(projection)`: the projection of the input, then of each new item in turn (breadth first),
    /// each element added once (nodes by their place in the resource, values by `=`).
    func repeatProjection(_ projection: FHIRPathSyntax) throws(FHIRPathError) -> FHIRPathCollection {
        var result: FHIRPathCollection = []
        var seenNodes = Set<String>()
        var queue = input[...]
        while let item = queue.popFirst() {
            for next in try evaluator.evaluate(projection, in: FHIRPathEvaluator.Scope(this: [item], index: nil, total: scope.total)) {
                if case .node(let node) = next {
                    guard seenNodes.insert("\(node.root)|\(node.location)").inserted else { continue }
                } else if result.contains(where: { FHIRPathOperations.isEqual($0, next) == true }) {
                    continue
                }
                result.append(next)
                queue.append(next)
            }
        }
        return result
    }

    /// `iif(criterion, true-result [, otherwise-result])`: only the chosen branch is evaluated. Called on a
    /// single item, the arguments see that item as `$this`.
    func iif(hasBase: Bool) throws(FHIRPathError) -> FHIRPathCollection {
        try expectArguments(2...3)
        var branchScope = scope
        if hasBase {
            guard input.count <= 1 else {
                throw FHIRPathError(.cardinality, "iif() needs a single input item, got a collection of \(input.count)", at: offset)
            }
            branchScope.this = input
        }
        let criterion = try evaluator.evaluate(arguments[0], in: branchScope)
        if try FHIRPathOperations.boolean(criterion, for: "iif()", offset: arguments[0].offset) == true {
            return try evaluator.evaluate(arguments[1], in: branchScope)
        }
        return arguments.count == 3 ? try evaluator.evaluate(arguments[2], in: branchScope) : []
    }

    // MARK: Strings and numbers

    /// The string functions; an empty input gives an empty result.
    func stringFunction() throws(FHIRPathError) -> FHIRPathCollection {
        let argumentCounts: [String: ClosedRange<Int>] = [
            "length": 0...0, "upper": 0...0, "lower": 0...0, "trim": 0...0, "toChars": 0...0, "contains": 1...1,
            "startsWith": 1...1, "endsWith": 1...1, "matches": 1...1, "indexOf": 1...1, "substring": 1...2, "replace": 2...2,
        ]
        try expectArguments(argumentCounts[name] ?? 0...0)
        guard let value = try FHIRPathOperations.singleton(input, for: "\(name)()", offset: offset) else { return [] }
        guard case .string(let text) = FHIRPathOperations.primitive(value) else {
            throw FHIRPathError(.type, "\(name)() needs a String input, got \(value.typeName)", at: offset)
        }
        let scalars = Array(text.unicodeScalars)
        switch name {
        case "length": return [.integer(scalars.count)]
        case "upper": return [.string(text.uppercased())]
        case "lower": return [.string(text.lowercased())]
        case "trim": return [.string(text.trimmingCharacters(in: .whitespacesAndNewlines))]
        case "toChars": return text.map { .string(String($0)) }
        case "substring":
            guard let start = try integerArgument(0), start >= 0, start < scalars.count else { return [] }
            let length = arguments.count == 2 ? try integerArgument(1) : nil
            let end = length.map { min(scalars.count, start + max(0, $0)) } ?? scalars.count
            var result = String.UnicodeScalarView()
            result.append(contentsOf: scalars[start..<end])
            return [.string(String(result))]
        case "replace":
            guard let pattern = try stringArgument(0), let substitution = try stringArgument(1) else { return [] }
            return [.string(text.replacingOccurrences(of: pattern, with: substitution))]
        default:
            break
        }
        guard let argument = try stringArgument(0) else { return [] }
        switch name {
        case "contains": return [.boolean(argument.isEmpty || text.unicodeScalars.firstRange(of: argument.unicodeScalars) != nil)]
        case "startsWith": return [.boolean(text.unicodeScalars.starts(with: argument.unicodeScalars))]
        case "endsWith": return [.boolean(text.unicodeScalars.reversed().starts(with: argument.unicodeScalars.reversed()))]
        case "indexOf":
            guard !argument.isEmpty else { return [.integer(0)] }
            guard let range = text.unicodeScalars.firstRange(of: argument.unicodeScalars) else { return [.integer(-1)] }
            return [.integer(text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound))]
        default:
            let expression = try regularExpression(argument)
            let range = NSRange(text.startIndex..., in: text)
            return [.boolean(expression.firstMatch(in: text, range: range) != nil)]
        }
    }

    /// `abs()`, `ceiling()`, `floor()`, `truncate()` and `round([precision])`.
    func mathFunction() throws(FHIRPathError) -> FHIRPathCollection {
        try expectArguments(name == "round" ? 0...1 : 0...0)
        guard let value = try FHIRPathOperations.singleton(input, for: "\(name)()", offset: offset) else { return [] }
        let primitive = FHIRPathOperations.primitive(value)
        if name == "abs", case .quantity(let quantity) = primitive {
            return [.quantity(FHIRPathQuantity(value: abs(quantity.value), unit: quantity.unit))]
        }
        let number: Decimal
        switch primitive {
        case .integer(let integer):
            if name != "round" { return [.integer(name == "abs" ? abs(integer) : integer)] }
            number = Decimal(integer)
        case .decimal(let decimal): number = decimal
        default: throw FHIRPathError(.type, "\(name)() needs a number, got \(value.typeName)", at: offset)
        }
        func integer(_ decimal: Decimal) -> FHIRPathCollection {
            Int(exactly: NSDecimalNumber(decimal: decimal).int64Value).map { [.integer($0)] } ?? []
        }
        switch name {
        case "abs": return [.decimal(abs(number))]
        case "ceiling": return integer(FHIRPathOperations.rounded(number, 0, mode: .up))
        case "floor": return integer(FHIRPathOperations.rounded(number, 0, mode: .down))
        case "truncate": return integer(FHIRPathOperations.truncated(number))
        default:
            let precision = arguments.isEmpty ? 0 : try integerArgument(0) ?? 0
            guard precision >= 0 else {
                throw FHIRPathError(.invalidArguments, "round() needs a precision of 0 or more", at: arguments[0].offset)
            }
            return [.decimal(FHIRPathOperations.rounded(number, precision))]
        }
    }
}
