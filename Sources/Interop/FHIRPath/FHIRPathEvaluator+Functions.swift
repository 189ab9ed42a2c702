import Foundation

extension FHIRPathEvaluator {
    /// Calls the function `name` on `input`. Criteria and projections are evaluated once per input item
    /// (with `$this` and `$index`); other arguments are evaluated in the scope the call appears in.
    func callFunction(
        _ name: String, on input: FHIRPathCollection, arguments: [FHIRPathSyntax], scope: Scope, hasBase: Bool, offset: Int
    ) throws(FHIRPathError) -> FHIRPathCollection {
        let call = FHIRPathFunctionCall(evaluator: self, name: name, input: input, arguments: arguments, scope: scope, offset: offset)
        switch name {
        // Existence
        case "empty": try call.expectArguments(0); return [.boolean(input.isEmpty)]
        case "exists":
            try call.expectArguments(0...1)
            if arguments.isEmpty { return [.boolean(!input.isEmpty)] }
            return [.boolean(!(try call.filter(arguments[0])).isEmpty)]
        case "all":
            try call.expectArguments(1)
            for (index, item) in input.enumerated() {
                let result = try evaluate(arguments[0], in: Scope(this: [item], index: index, total: scope.total))
                if try FHIRPathOperations.boolean(result, for: "all()", offset: offset) != true { return [.boolean(false)] }
            }
            return [.boolean(true)]
        case "allTrue", "anyTrue", "allFalse", "anyFalse":
            try call.expectArguments(0)
            let booleans = try call.booleans()
            let result = switch name {
            case "allTrue": booleans.allSatisfy { $0 }
            case "anyTrue": booleans.contains(true)
            case "allFalse": booleans.allSatisfy { !$0 }
            default: booleans.contains(false)
            }
            return [.boolean(result)]
        case "count": try call.expectArguments(0); return [.integer(input.count)]
        case "distinct": try call.expectArguments(0); return FHIRPathOperations.distinct(input)
        case "isDistinct": try call.expectArguments(0); return [.boolean(FHIRPathOperations.distinct(input).count == input.count)]
        // Filtering and projection
        case "where": try call.expectArguments(1); return try call.filter(arguments[0])
        case "select":
            try call.expectArguments(1)
            var result: FHIRPathCollection = []
            for (index, item) in input.enumerated() {
                result += try evaluate(arguments[0], in: Scope(this: [item], index: index, total: scope.total))
            }
            return result
        case "repeat": try call.expectArguments(1); return try call.repeatProjection(arguments[0])
        case "ofType":
            try call.expectArguments(1)
            let typeName = try call.typeName(arguments[0])
            return input.filter { FHIRPathOperations.value($0, isOfType: typeName) }
        // Subsetting
        case "first": try call.expectArguments(0); return Array(input.prefix(1))
        case "last": try call.expectArguments(0); return Array(input.suffix(1))
        case "tail": try call.expectArguments(0); return Array(input.dropFirst())
        case "skip": try call.expectArguments(1); return Array(input.dropFirst(max(0, try call.integerArgument(0) ?? 0)))
        case "take": try call.expectArguments(1); return Array(input.prefix(max(0, try call.integerArgument(0) ?? 0)))
        case "single":
            try call.expectArguments(0)
            return try FHIRPathOperations.singleton(input, for: "single()", offset: offset).map { [$0] } ?? []
        case "intersect":
            try call.expectArguments(1)
            let other = try call.argument(0)
            return FHIRPathOperations.distinct(input.filter { item in other.contains { FHIRPathOperations.isEqual(item, $0) == true } })
        case "subsetOf", "supersetOf": return try call.setFunction()
        case "exclude":
            try call.expectArguments(1)
            let other = try call.argument(0)
            return input.filter { item in !other.contains { FHIRPathOperations.isEqual(item, $0) == true } }
        // Combining
        case "union": try call.expectArguments(1); return FHIRPathOperations.distinct(input + (try call.argument(0)))
        case "combine": try call.expectArguments(1); return input + (try call.argument(0))
        // Conversion and logic
        case "iif": return try call.iif(hasBase: hasBase)
        case "not":
            try call.expectArguments(0)
            return try FHIRPathOperations.boolean(input, for: "not()", offset: offset).map { [.boolean(!$0)] } ?? []
        case _ where FHIRPathConversions.functions.contains(name):
            try call.expectArguments(0)
            guard let value = try FHIRPathOperations.singleton(input, for: "\(name)()", offset: offset) else { return [] }
            return FHIRPathConversions.convert(value, with: name).map { [$0] } ?? []
        case _ where name.hasPrefix("convertsTo") && FHIRPathConversions.functions.contains("to" + name.dropFirst(10)):
            try call.expectArguments(0)
            guard let value = try FHIRPathOperations.singleton(input, for: "\(name)()", offset: offset) else { return [] }
            return [.boolean(FHIRPathConversions.convert(value, with: "to" + name.dropFirst(10)) != nil)]
        case "is", "as":
            try call.expectArguments(1)
            let typeName = try call.typeName(arguments[0])
            guard let value = try FHIRPathOperations.singleton(input, for: "\(name)()", offset: offset) else { return [] }
            let matches = FHIRPathOperations.value(value, isOfType: typeName)
            return name == "is" ? [.boolean(matches)] : (matches ? [value] : [])
        // Strings
        case "length", "upper", "lower", "trim", "toChars", "contains", "startsWith", "endsWith", "matches", "indexOf",
            "substring", "replace":
            return try call.stringFunction()
        case "encode", "decode", "escape", "unescape", "split", "join", "replaceMatches":
            return try call.textFunction()
        // Math
        case "abs", "ceiling", "floor", "truncate", "round":
            return try call.mathFunction()
        case "sqrt", "exp", "ln", "log", "power":
            return try call.exponentialFunction()
        // Aggregates
        case "sum":
            try call.expectArguments(0)
            var total: FHIRPathValue = .integer(0)
            for item in input {
                guard let next = try FHIRPathOperations.arithmetic(.add, total, item, offset: offset) else { return [] }
                total = next
            }
            return [total]
        case "min", "max":
            try call.expectArguments(0)
            var best: FHIRPathValue?
            for item in input {
                guard let current = best else { best = item; continue }
                guard let order = try FHIRPathOperations.compare(item, current, for: "\(name)()", offset: offset) else { return [] }
                if (name == "min" && order == .orderedAscending) || (name == "max" && order == .orderedDescending) { best = item }
            }
            return best.map { [FHIRPathOperations.primitive($0)] } ?? []
        case "avg":
            try call.expectArguments(0)
            guard !input.isEmpty else { return [] }
            let sum = try callFunction("sum", on: input, arguments: [], scope: scope, hasBase: true, offset: offset)
            guard let total = sum.first else { return [] }
            return try FHIRPathOperations.arithmetic(.divide, total, .integer(input.count), offset: offset).map { [$0] } ?? []
        case "aggregate":
            try call.expectArguments(1...2)
            var total = arguments.count == 2 ? try call.argument(1) : []
            for (index, item) in input.enumerated() {
                total = try evaluate(arguments[0], in: Scope(this: [item], index: index, total: total))
            }
            return total
        // Tree navigation
        case "children": try call.expectArguments(0); return input.flatMap { Self.allChildren(of: $0).map { .node($0) } }
        case "descendants":
            try call.expectArguments(0)
            var result: FHIRPathCollection = []
            var level = input.flatMap { Self.allChildren(of: $0).map { FHIRPathValue.node($0) } }
            while !level.isEmpty {
                result += level
                level = level.flatMap { Self.allChildren(of: $0).map { FHIRPathValue.node($0) } }
            }
            return result
        // Utility
        case "trace": try call.expectArguments(1...2); return input
        case "now", "today", "timeOfDay":
            try call.expectArguments(0)
            guard let now else {
                throw FHIRPathError(.evaluation, "\(name)() needs the moment of evaluation, which this evaluation was not given", at: offset)
            }
            switch name {
            case "now": return FHIRPathTemporal.dateTime(now.dateTimeText).map { [.dateTime($0)] } ?? []
            case "today": return FHIRPathTemporal.date(now.dateText).map { [.date($0)] } ?? []
            default: return FHIRPathTemporal.time(now.timeText).map { [.time($0)] } ?? []
            }
        case "type":
            try call.expectArguments(0)
            return input.map { value in
                let parts = value.typeName.split(separator: ".", maxSplits: 1).map(String.init)
                let info = FHIRJSON.object(FHIRJSONObject([("namespace", .string(parts[0])), ("name", .string(parts[1]))]))
                return .node(FHIRPathNode(resource: info, root: "type"))
            }
        case "extension":
            try call.expectArguments(1)
            guard let url = try call.stringArgument(0) else { return [] }
            return input.flatMap { Self.members(named: "extension", of: $0) }.filter { item in
                Self.members(named: "url", of: item).contains { FHIRPathOperations.primitive($0) == .string(url) }
            }
        // Structured Data Capture
        case "answers": try call.expectArguments(0); return answers(of: input)
        case "ordinal", "weight": try call.expectArguments(0); return try ordinals(of: input, function: name, offset: offset)
        default:
            throw FHIRPathError(.unsupportedFunction, "the function \(name)() is not supported by this FHIRPath subset", at: offset)
        }
    }
}
