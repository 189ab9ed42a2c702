import Foundation

/// The JSON form of a condition: an object tree such as `{"op": ">=", "ref": "pain", "value": 7}`,
/// or, when decoding, a string holding the text form such as `"pain >= 7 and not answered(meds)"`.
///
/// Encoding always writes the object tree, which keeps the structure explicit for tools; decoding also
/// takes the text form because that is what study authors write by hand. The objects are:
///
/// | `op` | other members |
/// |---|---|
/// | `==` `!=` `<` `<=` `>` `>=` | `ref`, `value` |
/// | `in` | `ref`, `lower`, `upper` |
/// | `contains` | `ref`, `value` |
/// | `matches` | `ref`, `pattern` |
/// | `answered`, `dontKnow` | `ref` |
/// | `and`, `or` | `conditions` (an array of conditions) |
/// | `not` | `condition` |
/// | `true`, `false` | none |
/// | `expression` | `language`, `expression` |
///
/// A `ref` is the reference's text form (`"baseline:pain.level"`); values are bare JSON numbers,
/// strings or booleans.
extension Condition: Codable {
    private enum CodingKeys: String, CodingKey {
        case op, ref, value, lower, upper, pattern, conditions, condition, language, expression
    }

    /// The spellings of `op` that are not comparison operators.
    private enum Operation: String, CaseIterable {
        case inRange = "in", contains, matches, answered, dontKnow, and, or, not, expression
        case constantTrue = "true", constantFalse = "false"
    }

    /// Decodes a condition from its object form or from a string holding its text form.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the text does not parse (the message includes the
    ///   ``ConditionSyntaxError``), when `op` is unknown, or when a `matches` pattern is not a valid regex.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            do {
                self = try Condition(parsing: text)
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "invalid condition \"\(text)\": \(error.description)", underlyingError: error))
            }
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let op = try container.decode(String.self, forKey: .op)
        if let comparison = ComparisonOperator(rawValue: op) {
            self = .comparison(try container.decode(AnswerReference.self, forKey: .ref), comparison,
                               try container.decode(ConditionValue.self, forKey: .value))
            return
        }
        guard let operation = Operation(rawValue: op) else {
            let known = ComparisonOperator.allCases.map(\.rawValue) + Operation.allCases.map(\.rawValue)
            throw DecodingError.dataCorruptedError(forKey: .op, in: container,
                debugDescription: "unknown condition op '\(op)'; expected one of \(known.joined(separator: ", "))")
        }
        switch operation {
        case .inRange:
            self = .inRange(try container.decode(AnswerReference.self, forKey: .ref),
                            lower: try container.decode(ConditionValue.self, forKey: .lower),
                            upper: try container.decode(ConditionValue.self, forKey: .upper))
        case .contains:
            self = .contains(try container.decode(AnswerReference.self, forKey: .ref),
                             try container.decode(ConditionValue.self, forKey: .value))
        case .matches:
            let pattern = try container.decode(String.self, forKey: .pattern)
            do {
                _ = try Regex(pattern)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .pattern, in: container,
                    debugDescription: "invalid regular expression \"\(pattern)\": \(error)")
            }
            self = .matches(try container.decode(AnswerReference.self, forKey: .ref), pattern: pattern)
        case .answered:
            self = .answered(try container.decode(AnswerReference.self, forKey: .ref))
        case .dontKnow:
            self = .dontKnow(try container.decode(AnswerReference.self, forKey: .ref))
        case .and:
            self = .and(try container.decode([Condition].self, forKey: .conditions))
        case .or:
            self = .or(try container.decode([Condition].self, forKey: .conditions))
        case .not:
            self = .not(try container.decode(Condition.self, forKey: .condition))
        case .expression:
            self = .expression(ItemCalculation(language: try container.decode(String.self, forKey: .language),
                                               expression: try container.decode(String.self, forKey: .expression)))
        case .constantTrue:
            self = .constant(true)
        case .constantFalse:
            self = .constant(false)
        }
    }

    /// Encodes the condition as its object form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .comparison(let reference, let comparison, let value):
            try container.encode(comparison.rawValue, forKey: .op)
            try container.encode(reference, forKey: .ref)
            try container.encode(value, forKey: .value)
        case .inRange(let reference, let lower, let upper):
            try container.encode(Operation.inRange.rawValue, forKey: .op)
            try container.encode(reference, forKey: .ref)
            try container.encode(lower, forKey: .lower)
            try container.encode(upper, forKey: .upper)
        case .contains(let reference, let value):
            try container.encode(Operation.contains.rawValue, forKey: .op)
            try container.encode(reference, forKey: .ref)
            try container.encode(value, forKey: .value)
        case .matches(let reference, let pattern):
            try container.encode(Operation.matches.rawValue, forKey: .op)
            try container.encode(reference, forKey: .ref)
            try container.encode(pattern, forKey: .pattern)
        case .answered(let reference):
            try container.encode(Operation.answered.rawValue, forKey: .op)
            try container.encode(reference, forKey: .ref)
        case .dontKnow(let reference):
            try container.encode(Operation.dontKnow.rawValue, forKey: .op)
            try container.encode(reference, forKey: .ref)
        case .expression(let calculation):
            try container.encode(Operation.expression.rawValue, forKey: .op)
            try container.encode(calculation.language, forKey: .language)
            try container.encode(calculation.expression, forKey: .expression)
        case .and(let conditions):
            try container.encode(Operation.and.rawValue, forKey: .op)
            try container.encode(conditions, forKey: .conditions)
        case .or(let conditions):
            try container.encode(Operation.or.rawValue, forKey: .op)
            try container.encode(conditions, forKey: .conditions)
        case .not(let condition):
            try container.encode(Operation.not.rawValue, forKey: .op)
            try container.encode(condition, forKey: .condition)
        case .constant(let value):
            try container.encode((value ? Operation.constantTrue : Operation.constantFalse).rawValue, forKey: .op)
        }
    }
}

/// The JSON form of a reference: its text form as a string, such as `"baseline:pain.level"`.
extension AnswerReference: Codable {
    /// Decodes a reference from its text form.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with the ``ConditionSyntaxError`` when the text does not parse.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try AnswerReference(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container,
                debugDescription: "invalid answer reference \"\(text)\": \(error.description)")
        }
    }

    /// Encodes the reference as its text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The JSON form of a literal: a bare JSON number (read exactly as a ``Decimal``), string or boolean.
extension ConditionValue: Codable {
    /// Decodes a bare JSON boolean, number or string.
    ///
    /// - Throws: `DecodingError.typeMismatch` for anything else (null, arrays, objects).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Decimal.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            throw DecodingError.typeMismatch(ConditionValue.self, .init(codingPath: decoder.codingPath,
                debugDescription: "a condition value must be a number, a string or a boolean"))
        }
    }

    /// Encodes the literal as a bare JSON number, string or boolean.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        }
    }
}
