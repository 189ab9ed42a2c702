import Foundation

extension Condition {
    /// Whether the condition holds for the answers in `context`.
    public func isSatisfied(by context: ConditionContext) -> Bool {
        switch self {
        case .constant(let value):
            return value
        case .and(let conditions):
            return conditions.allSatisfy { $0.isSatisfied(by: context) }
        case .or(let conditions):
            return conditions.contains { $0.isSatisfied(by: context) }
        case .not(let condition):
            return !condition.isSatisfied(by: context)
        case .answered(let reference):
            guard let answer = context.answer(reference) else { return false }
            return answer != .dontKnow
        case .dontKnow(let reference):
            return context.answer(reference) == .dontKnow
        case .comparison(let reference, let op, let value):
            guard let answer = context.answer(reference), answer != .dontKnow,
                  let order = ConditionValue.compare(answer, with: value) else { return false }
            switch op {
            case .equal: return order == .orderedSame
            case .notEqual: return order != .orderedSame
            case .less: return order == .orderedAscending
            case .lessOrEqual: return order != .orderedDescending
            case .greater: return order == .orderedDescending
            case .greaterOrEqual: return order != .orderedAscending
            }
        case .inRange(let reference, let lower, let upper):
            guard let answer = context.answer(reference), answer != .dontKnow,
                  let low = ConditionValue.compare(answer, with: lower), let high = ConditionValue.compare(answer, with: upper)
            else { return false }
            return low != .orderedAscending && high != .orderedDescending
        case .contains(let reference, let value):
            switch context.answer(reference) {
            case .choices(let selections)?:
                return selections.contains { ConditionValue.compare(choice: $0.value, with: value) == .orderedSame }
            case .components(let values)?:
                return values.contains { ConditionValue.compare(choice: $0, with: value) == .orderedSame }
            case .text(let text)?:
                if case .string(let needle) = value { return text.contains(needle) }
                return false
            default:
                return false
            }
        case .matches(let reference, let pattern):
            guard case .text(let text)? = context.answer(reference),
                  let regex = try? Regex(pattern) else { return false }
            return (try? regex.wholeMatch(in: text)) != nil
        }
    }
}

extension ConditionValue {
    /// Orders an answer against a literal; nil when the two cannot be compared (different types).
    static func compare(_ answer: Answer, with value: ConditionValue) -> ComparisonResult? {
        switch (answer, value) {
        case (.boolean(let a), .boolean(let b)):
            return a == b ? .orderedSame : (a ? .orderedDescending : .orderedAscending)
        case (.number(let a), .number(let b)):
            return order(a, b)
        case (.timeInterval(let a), .number(let b)):
            return order(Decimal(a), b)
        case (.text(let a), .string(let b)):
            return order(a, b)
        case (.choices(let selections), _):
            guard selections.count == 1 else {
                return selections.isEmpty ? nil : nil
            }
            return compare(choice: selections[0].value, with: value)
        case (.date(let a), .string(let b)):
            if let date = ISO8601.date(from: b) { return order(a.date, date) }
            if let day = ISO8601.day(from: b),
               let other = DateAnswer(year: day.year, month: day.month, day: day.day, timeZone: a.timeZone, calendar: a.calendar) {
                if a.includesTime { return order(a.date, other.date) }
                return order(a.date, other.date)
            }
            return nil
        case (.timeOfDay(let a), .string(let b)):
            guard let other = TimeOfDay(parsing: b) else { return nil }
            return order(a, other)
        default:
            return nil
        }
    }

    /// Orders a choice value against a literal: numbers with numbers, strings with strings.
    static func compare(choice: ChoiceValue, with value: ConditionValue) -> ComparisonResult? {
        switch (choice, value) {
        case (.string(let a), .string(let b)): return order(a, b)
        case (.integer(let a), .number(let b)): return order(Decimal(a), b)
        case (.decimal(let a), .number(let b)): return order(Decimal(a), b)
        default: return nil
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    }
}
