import Foundation

/// How lengths and weights are entered: metric (cm, kg), US customary (feet and inches, pounds and ounces),
/// or whatever the participant's locale uses.
public enum MeasurementSystem: String, Hashable, Sendable, Codable {
    /// `metric`: cm and kg; `usCustomary`: feet and inches, pounds and ounces; `local`: what the participant's locale uses.
    case metric, usCustomary, local
}

extension MeasurementSystem {
    /// Whether heights and weights are entered in feet, inches, pounds and ounces for a participant in `locale`: the
    /// terminal's typed answers and the web form's fields both ask this.
    public func usesUSCustomary(in locale: Locale) -> Bool {
        switch self {
        case .metric: false
        case .usCustomary: true
        case .local: locale.measurementSystem == .us
        }
    }
}

/// The rules ``HeightFormat`` and ``WeightFormat`` share: a body measurement is more than 0, within its bounds.
enum BodyMeasurement {
    /// Bounds of a body measurement: not negative, and minimum below maximum.
    static func addBoundsProblems(minimum: Decimal?, maximum: Decimal?, unit: String, to problems: inout FormatProblems) {
        if let minimum, minimum < 0 { problems.add("minimum", "must not be negative (is \(minimum) \(unit))") }
        if let maximum, maximum < 0 { problems.add("maximum", "must not be negative (is \(maximum) \(unit))") }
        if let minimum, let maximum, maximum <= minimum {
            problems.add("maximum", "must be greater than minimum (\(maximum) \(maximum == minimum ? "=" : "<") \(minimum))")
        }
    }

    /// The messages of one measurement: more than 0, between its bounds, at least, at most.
    struct Messages {
        let positive: AnswerValidationError.Key
        let range: AnswerNumbers.RangeKeys
        static let height = Messages(positive: .heightPositive, range: .init(between: .heightRange, atLeast: .heightAtLeast, atMost: .heightAtMost))
        static let weight = Messages(positive: .weightPositive, range: .init(between: .weightRange, atLeast: .weightAtLeast, atMost: .weightAtMost))
    }

    /// Checks a measurement: "Enter a height greater than 0 cm.", "Enter a weight from 40 to 200 kg.".
    static func validate(_ value: Decimal, _ messages: Messages, minimum: Decimal?, maximum: Decimal?) throws(AnswerValidationError) {
        guard value > 0 else { throw AnswerValidationError(messages.positive) }
        try AnswerNumbers.checkBounds(value, minimum: minimum, maximum: maximum, messages.range)
    }
}
