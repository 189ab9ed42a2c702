import Foundation

extension Condition {
    /// Whether the condition holds for the answers in `context`.
    ///
    /// Comparisons, ranges, `contains` and `matches` are false when the question was not answered or was
    /// answered "I don't know" (even `!=`), and when the answer and the literal are of different types:
    ///
    /// - numbers compare numerically with number and duration answers and with a single numeric choice;
    /// - booleans compare with yes/no answers (`false` before `true`);
    /// - strings compare with text answers and with a single string choice;
    /// - a string compares with a date answer as a day `YYYY-MM-DD` (an ISO 8601, Gregorian day; the
    ///   answer's day is taken in its own time zone) or as a date-time with offset (instants compared);
    /// - a string compares with a time-of-day answer as `HH:MM` or `HH:MM:SS`.
    ///
    /// A multiple-choice answer equals a value only when exactly that one value is chosen; with several
    /// (or no) choices of the literal's type it is unequal to it, and not ordered. `contains` tests
    /// membership in the chosen values or picker components, or a substring of a text answer; `matches`
    /// matches a text answer as a whole against the regular expression.
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
        case .comparison(let reference, let comparison, let value):
            guard let answer = context.givenAnswer(reference) else { return false }
            switch answer.relation(to: value) {
            case .incomparable: return false
            case .unequal: return comparison == .notEqual
            case .ordered(let order): return comparison.holds(for: order)
            }
        case .inRange(let reference, let lower, let upper):
            guard let answer = context.givenAnswer(reference),
                  case .ordered(let fromLower) = answer.relation(to: lower),
                  case .ordered(let fromUpper) = answer.relation(to: upper) else { return false }
            return fromLower != .orderedAscending && fromUpper != .orderedDescending
        case .contains(let reference, let value):
            switch context.givenAnswer(reference) {
            case .choices(let selections)?:
                return selections.contains { $0.value.relation(to: value) == .ordered(.orderedSame) }
            case .components(let values)?:
                return values.contains { $0.relation(to: value) == .ordered(.orderedSame) }
            case .text(let text)?:
                guard case .string(let needle) = value else { return false }
                return needle.isEmpty || text.contains(needle)
            default:
                return false
            }
        case .matches(let reference, let pattern):
            guard case .text(let text)? = context.givenAnswer(reference) else { return false }
            return CompiledPatterns.wholeMatch(pattern, text)
        case .expression(let calculation):
            return context.evaluateExpression?(calculation) ?? false
        }
    }
}

extension ConditionContext {
    /// The answer `reference` points at, unless it is missing or "I don't know".
    fileprivate func givenAnswer(_ reference: AnswerReference) -> Answer? {
        guard let answer = answer(reference), answer != .dontKnow else { return nil }
        return answer
    }
}

extension ComparisonOperator {
    /// Whether the operator holds between two values in the given order (left compared with right).
    fileprivate func holds(for order: ComparisonResult) -> Bool {
        switch self {
        case .equal: order == .orderedSame
        case .notEqual: order != .orderedSame
        case .less: order == .orderedAscending
        case .lessOrEqual: order != .orderedDescending
        case .greater: order == .orderedDescending
        case .greaterOrEqual: order != .orderedAscending
        }
    }
}

/// How an answer stands against a literal of a condition.
enum AnswerRelation: Equatable {
    /// Of comparable types: the answer is before, equal to or after the literal.
    case ordered(ComparisonResult)
    /// Of the same type but not one value (several choices against one value): only `!=` holds.
    case unequal
    /// Of different types: no comparison holds.
    case incomparable

    /// The order of two comparable values.
    static func order<T: Comparable>(_ left: T, _ right: T) -> AnswerRelation {
        .ordered(left == right ? .orderedSame : (left < right ? .orderedAscending : .orderedDescending))
    }
}

extension Answer {
    /// How the answer stands against `value`; see ``Condition/isSatisfied(by:)`` for the rules.
    func relation(to value: ConditionValue) -> AnswerRelation {
        switch (self, value) {
        case (.boolean(let answer), .boolean(let literal)):
            return .order(answer ? 1 : 0, literal ? 1 : 0)
        case (.number(let answer), .number(let literal)):
            return .order(answer, literal)
        case (.timeInterval(let answer), .number(let literal)):
            guard let seconds = Decimal(shortest: answer) else { return .incomparable }
            return .order(seconds, literal)
        case (.text(let answer), .string(let literal)):
            return .order(answer, literal)
        case (.choices(let selections), _):
            if selections.count == 1 { return selections[0].value.relation(to: value) }
            if case .boolean = value { return .incomparable }
            let sameType = selections.isEmpty || selections.contains { $0.value.relation(to: value) != .incomparable }
            return sameType ? .unequal : .incomparable
        case (.date(let answer), .string(let literal)):
            return answer.relation(to: literal)
        case (.timeOfDay(let answer), .string(let literal)):
            guard let time = TimeOfDay(parsing: literal) else { return .incomparable }
            return .order(answer, time)
        default:
            return .incomparable
        }
    }
}

extension ChoiceValue {
    /// How a chosen value stands against `value`: numbers with numbers, strings with strings.
    func relation(to value: ConditionValue) -> AnswerRelation {
        switch (self, value) {
        case (.string(let choice), .string(let literal)):
            return .order(choice, literal)
        case (.integer(let choice), .number(let literal)):
            return .order(Decimal(choice), literal)
        case (.decimal(let choice), .number(let literal)):
            guard let number = Decimal(shortest: choice) else { return .incomparable }
            return .order(number, literal)
        default:
            return .incomparable
        }
    }
}

extension DateAnswer {
    /// How the answer stands against a day `YYYY-MM-DD` (days compared in the answer's time zone) or an
    /// ISO 8601 date-time with offset (instants compared).
    ///
    /// The day is read as ISO 8601 defines it, in the Gregorian calendar, whatever calendar the answer was
    /// given in; days start at the same instant in every calendar, so only the answer's zone matters.
    func relation(to literal: String) -> AnswerRelation {
        if let day = DateAnswer.isoDay(literal) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            guard let literalDay = DateAnswer(year: day.year, month: day.month, day: day.day, timeZone: timeZone, calendar: .gregorian)
            else { return .incomparable }
            return .order(calendar.startOfDay(for: date), literalDay.date)
        }
        if let instant = ISO8601.date(from: literal) {
            return .order(date, instant)
        }
        return .incomparable
    }

    /// The parts of a strict `YYYY-MM-DD` (ASCII digits only); nil for anything else.
    private static func isoDay(_ text: String) -> (year: Int, month: Int, day: Int)? {
        guard text.utf8.count == 10, text.utf8.enumerated().allSatisfy({ index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }) else { return nil }
        return ISO8601.day(from: text)
    }
}

extension Decimal {
    /// The decimal written by the shortest representation of a double (so `0.1` is exactly 0.1, not the
    /// binary approximation); nil for infinities and NaN.
    init?(shortest value: Double) {
        guard value.isFinite else { return nil }
        self = Decimal(string: String(value), locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(value)
    }
}
