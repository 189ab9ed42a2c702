import Foundation

/// The value semantics of FHIRPath: singleton evaluation, equality and equivalence, ordering, arithmetic and
/// three-valued logic, as the specification defines them for the operators.
enum FHIRPathOperations {
    // MARK: Collections and conversions

    /// The one item of `collection`; nil when it is empty; an error naming `operation` when it has more.
    static func singleton(_ collection: FHIRPathCollection, for operation: String, offset: Int) throws(FHIRPathError) -> FHIRPathValue? {
        guard collection.count <= 1 else {
            throw FHIRPathError(.cardinality, "'\(operation)' needs a single item, got a collection of \(collection.count)", at: offset)
        }
        return collection.first
    }

    /// A node as the system value it holds (Boolean, Integer, Decimal, String, Date, DateTime, Time or, for a
    /// Quantity element, Quantity); system values and other nodes unchanged.
    static func primitive(_ value: FHIRPathValue) -> FHIRPathValue {
        guard case .node(let node) = value else { return value }
        switch node.json {
        case .bool(let boolean): return .boolean(boolean)
        case .integer(let integer):
            return node.fhirType.map(FHIRElementTypes.decimalTypes.contains) == true ? .decimal(Decimal(integer)) : .integer(integer)
        case .decimal(let decimal, _): return .decimal(decimal)
        case .string(let text):
            if let type = node.fhirType {
                if FHIRElementTypes.dateTypes.contains(type), let date = FHIRPathTemporal.date(text) { return .date(date) }
                if FHIRElementTypes.dateTimeTypes.contains(type), let dateTime = FHIRPathTemporal.dateTime(text) {
                    return .dateTime(dateTime)
                }
                if type == "time", let time = FHIRPathTemporal.time(text) { return .time(time) }
            }
            return .string(text)
        case .object(let object):
            if let type = node.fhirType, FHIRElementTypes.quantityTypes.contains(type), let amount = object["value"]?.decimalValue {
                let unit = object["code"]?.stringValue ?? object["unit"]?.stringValue ?? "1"
                return .quantity(FHIRPathQuantity(value: amount, unit: unit))
            }
            return value
        default:
            return value
        }
    }

    /// The Boolean a collection stands for where one is expected (the specification's singleton evaluation):
    /// nil when empty; the value of a single Boolean; `true` for any other single item; an error for more.
    static func boolean(_ collection: FHIRPathCollection, for operation: String, offset: Int) throws(FHIRPathError) -> Bool? {
        guard let value = try singleton(collection, for: operation, offset: offset) else { return nil }
        if case .boolean(let boolean) = primitive(value) { return boolean }
        return true
    }

    private static func number(_ value: FHIRPathValue) -> Decimal? {
        switch value {
        case .integer(let integer): Decimal(integer)
        case .decimal(let decimal): decimal
        default: nil
        }
    }

    // MARK: Operators

    /// Applies a binary operator to its two evaluated operands.
    static func apply(_ op: FHIRPathSyntax.BinaryOperator, _ left: FHIRPathCollection, _ right: FHIRPathCollection, offset: Int)
        throws(FHIRPathError) -> FHIRPathCollection
    {
        switch op {
        case .and, .or, .xor, .implies:
            let leftValue = try boolean(left, for: op.rawValue, offset: offset)
            let rightValue = try boolean(right, for: op.rawValue, offset: offset)
            return logic(op, leftValue, rightValue).map { [.boolean($0)] } ?? []
        case .union:
            return distinct(left + right)
        case .equal, .notEqual:
            guard !left.isEmpty, !right.isEmpty else { return [] }
            guard let equal = collectionsEqual(left, right) else { return [] }
            return [.boolean(op == .equal ? equal : !equal)]
        case .equivalent, .notEquivalent:
            let equivalent = collectionsEquivalent(left, right)
            return [.boolean(op == .equivalent ? equivalent : !equivalent)]
        case .in, .contains:
            let (item, collection) = op == .in ? (left, right) : (right, left)
            guard let single = try singleton(item, for: op.rawValue, offset: offset) else { return [] }
            return [.boolean(collection.contains { isEqual(single, $0) == true })]
        case .concatenate:
            let leftText = try singleton(left, for: "&", offset: offset).map { (value) throws(FHIRPathError) in try string(value, for: "&", offset: offset) }
            let rightText = try singleton(right, for: "&", offset: offset).map { (value) throws(FHIRPathError) in try string(value, for: "&", offset: offset) }
            return [.string((leftText ?? "") + (rightText ?? ""))]
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let leftValue = try singleton(left, for: op.rawValue, offset: offset),
                let rightValue = try singleton(right, for: op.rawValue, offset: offset),
                let order = try compare(leftValue, rightValue, for: op.rawValue, offset: offset)
            else { return [] }
            let result = switch op {
            case .less: order == .orderedAscending
            case .lessOrEqual: order != .orderedDescending
            case .greater: order == .orderedDescending
            default: order != .orderedAscending
            }
            return [.boolean(result)]
        case .add, .subtract, .multiply, .divide, .integerDivide, .modulo:
            guard let leftValue = try singleton(left, for: op.rawValue, offset: offset),
                let rightValue = try singleton(right, for: op.rawValue, offset: offset)
            else { return [] }
            return try arithmetic(op, leftValue, rightValue, offset: offset).map { [$0] } ?? []
        }
    }

    /// The three-valued logic of `and`, `or`, `xor` and `implies` (nil is the empty collection).
    static func logic(_ op: FHIRPathSyntax.BinaryOperator, _ left: Bool?, _ right: Bool?) -> Bool? {
        switch op {
        case .and:
            if left == false || right == false { return false }
            if left == true && right == true { return true }
            return nil
        case .or:
            if left == true || right == true { return true }
            if left == false && right == false { return false }
            return nil
        case .xor:
            guard let left, let right else { return nil }
            return left != right
        default:
            if left == false || right == true { return true }
            if left == true { return right }
            return nil
        }
    }

    private static func string(_ value: FHIRPathValue, for operation: String, offset: Int) throws(FHIRPathError) -> String {
        guard case .string(let text) = primitive(value) else {
            throw FHIRPathError(.type, "'\(operation)' needs Strings, got \(value.typeName)", at: offset)
        }
        return text
    }

    /// A date, date-time or time moved by a time-valued quantity; an error for a quantity of another unit.
    private static func moved(_ value: FHIRPathTemporal, by quantity: FHIRPathQuantity, op: FHIRPathSyntax.BinaryOperator,
                              offset: Int) throws(FHIRPathError) -> FHIRPathTemporal? {
        guard let result = value.adding(quantity, negated: op == .subtract) else {
            if FHIRPathQuantity.calendarWords.contains(quantity.unit) || ["a", "mo", "wk", "d", "h", "min", "s", "ms"].contains(quantity.unit) {
                return nil
            }
            throw FHIRPathError(.type, "a date or time can only be moved by a time such as 3 days or 1 'mo', not \(quantity)", at: offset)
        }
        return result
    }

    /// `+ - * / div mod` on two single values; nil (empty) for division by zero and Integer overflow.
    static func arithmetic(_ op: FHIRPathSyntax.BinaryOperator, _ leftValue: FHIRPathValue, _ rightValue: FHIRPathValue, offset: Int)
        throws(FHIRPathError) -> FHIRPathValue?
    {
        let left = primitive(leftValue)
        let right = primitive(rightValue)
        switch (left, right) {
        case (.integer(let a), .integer(let b)):
            switch op {
            case .add: let (sum, overflow) = a.addingReportingOverflow(b); return overflow ? nil : .integer(sum)
            case .subtract: let (difference, overflow) = a.subtractingReportingOverflow(b); return overflow ? nil : .integer(difference)
            case .multiply: let (product, overflow) = a.multipliedReportingOverflow(by: b); return overflow ? nil : .integer(product)
            case .divide: return b == 0 ? nil : .decimal(Decimal(a) / Decimal(b))
            case .integerDivide: return b == 0 ? nil : .integer(a / b)
            case .modulo: return b == 0 ? nil : .integer(a % b)
            default: break
            }
        case (.string(let a), .string(let b)) where op == .add:
            return .string(a + b)
        case (.date(let a), .quantity(let b)) where op == .add || op == .subtract:
            return try moved(a, by: b, op: op, offset: offset).map { .date($0) }
        case (.dateTime(let a), .quantity(let b)) where op == .add || op == .subtract:
            return try moved(a, by: b, op: op, offset: offset).map { .dateTime($0) }
        case (.time(let a), .quantity(let b)) where op == .add || op == .subtract:
            return try moved(a, by: b, op: op, offset: offset).map { .time($0) }
        case (.quantity(let a), .quantity(let b)) where (op == .add || op == .subtract):
            // The sum is in the left quantity's unit.
            var other = b.value
            if a.unit != b.unit {
                guard let left = FHIRPathUnit(a.unit), let right = FHIRPathUnit(b.unit), left.dimensions == right.dimensions else { return nil }
                other = b.value * right.factor / left.factor
            }
            return .quantity(FHIRPathQuantity(value: op == .add ? a.value + other : a.value - other, unit: a.unit))
        case (.quantity(let a), .quantity(let b)) where (op == .multiply || op == .divide):
            if op == .divide && b.value == 0 { return nil }
            if op == .divide, a.unit == b.unit { return .quantity(FHIRPathQuantity(value: a.value / b.value, unit: "1")) }
            guard let left = FHIRPathUnit.base(a), let right = FHIRPathUnit.base(b) else { return nil }
            let unit = left.unit.combined(with: right.unit, dividing: op == .divide)
            return .quantity(FHIRPathQuantity(value: op == .multiply ? left.value * right.value : left.value / right.value, unit: unit.baseCode))
        case (.quantity(let a), _) where (op == .multiply || op == .divide) && number(right) != nil:
            let factor = number(right)!
            if op == .divide && factor == 0 { return nil }
            return .quantity(FHIRPathQuantity(value: op == .multiply ? a.value * factor : a.value / factor, unit: a.unit))
        default:
            if let a = number(left), let b = number(right) {
                switch op {
                case .add: return .decimal(a + b)
                case .subtract: return .decimal(a - b)
                case .multiply: return .decimal(a * b)
                case .divide: return b == 0 ? nil : .decimal(a / b)
                case .integerDivide:
                    guard b != 0 else { return nil }
                    guard let quotient = Int(exactly: NSDecimalNumber(decimal: truncated(a / b)).int64Value) else { return nil }
                    return .integer(quotient)
                case .modulo:
                    guard b != 0 else { return nil }
                    return .decimal(a - b * truncated(a / b))
                default: break
                }
            }
        }
        throw FHIRPathError(.type, "'\(op.rawValue)' cannot combine \(leftValue.typeName) and \(rightValue.typeName)", at: offset)
    }

    /// Rounds toward zero to a whole number.
    static func truncated(_ value: Decimal) -> Decimal {
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, 0, value < 0 ? .up : .down)
        return result
    }

    /// Unary `-` or `+` on a number or quantity.
    static func polarity(_ value: FHIRPathValue, negate: Bool, offset: Int) throws(FHIRPathError) -> FHIRPathValue {
        switch primitive(value) {
        case .integer(let integer): return .integer(negate ? -integer : integer)
        case .decimal(let decimal): return .decimal(negate ? -decimal : decimal)
        case .quantity(let quantity): return .quantity(FHIRPathQuantity(value: negate ? -quantity.value : quantity.value, unit: quantity.unit))
        default: throw FHIRPathError(.type, "unary \(negate ? "-" : "+") needs a number, got \(value.typeName)", at: offset)
        }
    }

    // MARK: Equality, equivalence and order

    /// `=` on collections: nil (empty) when an item comparison is undetermined; false when the counts differ.
    static func collectionsEqual(_ left: FHIRPathCollection, _ right: FHIRPathCollection) -> Bool? {
        guard left.count == right.count else { return false }
        var undetermined = false
        for (a, b) in zip(left, right) {
            switch isEqual(a, b) {
            case false?: return false
            case nil: undetermined = true
            default: break
            }
        }
        return undetermined ? nil : true
    }

    /// `=` on two items: nil when it cannot be decided (dates of different precision, quantities in
    /// different units).
    static func isEqual(_ leftValue: FHIRPathValue, _ rightValue: FHIRPathValue) -> Bool? {
        let left = primitive(leftValue)
        let right = primitive(rightValue)
        if let a = number(left), let b = number(right) { return a == b }
        switch (left, right) {
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.quantity(let a), .quantity(let b)): return FHIRPathUnit.commonValues(a, b).map { $0.0 == $0.1 }
        case (.node(let a), .node(let b)): return jsonEqual(a.json, b.json)
        default:
            guard let (a, b) = temporalPair(left, right) else { return false }
            return FHIRPathTemporal.compare(a, b).map { $0 == .orderedSame }
        }
    }

    /// `~` on collections: both empty, or the same count with every left item equivalent to a right one.
    static func collectionsEquivalent(_ left: FHIRPathCollection, _ right: FHIRPathCollection) -> Bool {
        guard left.count == right.count else { return false }
        return left.allSatisfy { a in right.contains { b in isEquivalent(a, b) } }
    }

    /// `~` on two items: strings ignore case and runs of white space; decimals compare at the precision of
    /// the less precise; dates of different precision are not equivalent.
    static func isEquivalent(_ leftValue: FHIRPathValue, _ rightValue: FHIRPathValue) -> Bool {
        let left = primitive(leftValue)
        let right = primitive(rightValue)
        switch (left, right) {
        case (.string(let a), .string(let b)): return normalizedForEquivalence(a) == normalizedForEquivalence(b)
        case (.decimal, _), (_, .decimal):
            guard let a = number(left), let b = number(right) else { return false }
            let digits = min(fractionDigits(a), fractionDigits(b))
            return rounded(a, digits) == rounded(b, digits)
        case (.quantity(let a), .quantity(let b)):
            guard let (x, y) = FHIRPathUnit.commonValues(a, b) else { return false }
            let digits = min(fractionDigits(x), fractionDigits(y))
            return rounded(x, digits) == rounded(y, digits)
        default:
            return isEqual(left, right) ?? false
        }
    }

    private static func normalizedForEquivalence(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func fractionDigits(_ value: Decimal) -> Int { max(0, -Int(value.exponent)) }

    static func rounded(_ value: Decimal, _ digits: Int, mode: NSDecimalNumber.RoundingMode = .plain) -> Decimal {
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, digits, mode)
        return result
    }

    /// Deep equality of JSON where numbers compare by value (`1` equals `1.0`) and members in any order.
    static func jsonEqual(_ left: FHIRJSON, _ right: FHIRJSON) -> Bool {
        switch (left, right) {
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { member in b[member.key].map { jsonEqual(member.value, $0) } ?? false }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { jsonEqual($0, $1) }
        default:
            if let a = left.decimalValue, let b = right.decimalValue { return a == b }
            return left == right
        }
    }

    /// Two temporal values of comparable kinds; a String on one side is read as the other side's kind.
    private static func temporalPair(_ left: FHIRPathValue, _ right: FHIRPathValue) -> (FHIRPathTemporal, FHIRPathTemporal)? {
        func temporal(_ value: FHIRPathValue, like other: FHIRPathValue) -> FHIRPathTemporal? {
            switch (value, other) {
            case (.date(let t), .date), (.date(let t), .dateTime), (.dateTime(let t), .date), (.dateTime(let t), .dateTime),
                (.time(let t), .time):
                return t
            case (.string(let text), .date), (.string(let text), .dateTime): return FHIRPathTemporal.dateTime(text)
            case (.string(let text), .time): return FHIRPathTemporal.time(text)
            default: return nil
            }
        }
        guard let a = temporal(left, like: right), let b = temporal(right, like: left) else { return nil }
        return (a, b)
    }

    /// The order of two single values for `< <= > >=`, `min()` and `max()`: nil when undetermined (dates
    /// of different precision, quantities in different units); an error for types that have no order together.
    static func compare(_ leftValue: FHIRPathValue, _ rightValue: FHIRPathValue, for operation: String, offset: Int)
        throws(FHIRPathError) -> ComparisonResult?
    {
        let left = primitive(leftValue)
        let right = primitive(rightValue)
        if let a = number(left), let b = number(right) { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
        switch (left, right) {
        case (.string(let a), .string(let b)):
            if a == b { return .orderedSame }
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? .orderedAscending : .orderedDescending
        case (.quantity(let a), .quantity(let b)):
            guard let (x, y) = FHIRPathUnit.commonValues(a, b) else { return nil }
            return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        default:
            if let (a, b) = temporalPair(left, right) { return FHIRPathTemporal.compare(a, b) }
            throw FHIRPathError(.type, "'\(operation)' cannot compare \(leftValue.typeName) with \(rightValue.typeName)", at: offset)
        }
    }

    /// The collection without repeated items (by `=`), keeping the first of each.
    static func distinct(_ collection: FHIRPathCollection) -> FHIRPathCollection {
        var result: FHIRPathCollection = []
        for value in collection where !result.contains(where: { isEqual($0, value) == true }) {
            result.append(value)
        }
        return result
    }

    // MARK: Types

    /// Whether `value` is of the type named (`Coding`, `FHIR.Coding`, `System.Integer`, `Integer`, `boolean`):
    /// a node matches its FHIR type; system values match the System type of the same name; a node whose
    /// FHIR type is unknown matches the System type its JSON holds.
    static func value(_ value: FHIRPathValue, isOfType qualifiedName: String) -> Bool {
        let parts = qualifiedName.split(separator: ".", maxSplits: 1).map(String.init)
        let namespace = parts.count == 2 ? parts[0] : nil
        let name = parts.last ?? qualifiedName
        if case .node(let node) = value {
            if namespace != "System", node.fhirType == name { return true }
            if node.fhirType != nil || namespace == "FHIR" { return false }
        }
        guard namespace != "FHIR" else { return false }
        let systemName: String? = switch primitive(value) {
        case .boolean: "Boolean"
        case .integer: "Integer"
        case .decimal: "Decimal"
        case .string: "String"
        case .date: "Date"
        case .dateTime: "DateTime"
        case .time: "Time"
        case .quantity: "Quantity"
        case .node: nil
        }
        return systemName == name
    }
}
