import Foundation

/// A slider over whole numbers from minimum to maximum in steps.
public struct ScaleFormat: Hashable, Sendable, Codable {
    /// Smallest accepted value, inclusive, at the start of the slider; at least -10,000.
    public var minimum: Int
    /// Largest accepted value, inclusive, at the end of the slider; greater than ``minimum`` and at most 10,000.
    public var maximum: Int
    /// The difference between neighbouring values; at least 1, and `maximum - minimum` must be a multiple of it
    /// giving 1 to 13 steps. Defaults to 1.
    public var step: Int
    /// The value the slider starts at; nil for none. Must lie within ``minimum``...``maximum`` and on a step.
    public var defaultValue: Int?
    /// Shows the slider upright instead of across. Defaults to false.
    public var vertical: Bool
    /// Text shown at the minimum end of the slider, such as "No pain"; nil for none.
    public var minimumDescription: String?
    /// Text shown at the maximum end of the slider, such as "Worst pain imaginable"; nil for none.
    public var maximumDescription: String?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a scale format; see the properties for each setting's rules.
    public init(minimum: Int, maximum: Int, step: Int = 1, defaultValue: Int? = nil, vertical: Bool = false,
                minimumDescription: String? = nil, maximumDescription: String? = nil, dontKnow: DontKnowOption? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.vertical = vertical
        self.minimumDescription = minimumDescription
        self.maximumDescription = maximumDescription
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey {
        case minimum, maximum, step, defaultValue, vertical, minimumDescription, maximumDescription, dontKnow
    }
    /// Reads the format; `minimum` and `maximum` are required, `step` defaults to 1 and `vertical` to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        minimum = try c.decode(Int.self, forKey: .minimum)
        maximum = try c.decode(Int.self, forKey: .maximum)
        step = try c.decodeIfPresent(Int.self, forKey: .step) ?? 1
        defaultValue = try c.decodeIfPresent(Int.self, forKey: .defaultValue)
        vertical = try c.decodeIfPresent(Bool.self, forKey: .vertical) ?? false
        minimumDescription = try c.decodeIfPresent(String.self, forKey: .minimumDescription)
        maximumDescription = try c.decodeIfPresent(String.self, forKey: .maximumDescription)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

/// A slider over real numbers from minimum to maximum, answered to at most `maximumFractionDigits` digits.
public struct ContinuousScaleFormat: Hashable, Sendable, Codable {
    /// Smallest accepted value, inclusive, at the start of the slider; finite and at least -10,000.
    public var minimum: Double
    /// Largest accepted value, inclusive, at the end of the slider; finite, greater than ``minimum`` and at most 10,000.
    public var maximum: Double
    /// Most digits after the decimal point in an answer, from 0 to 4. With ``percentStyle`` they count in the
    /// percentage shown, so 25 % (stored as 0.25) needs none and 25.5 % needs 1. Defaults to 0 (whole numbers).
    public var maximumFractionDigits: Int
    /// The value the slider starts at; nil for none. Must be finite, lie within ``minimum``...``maximum`` and have
    /// at most ``maximumFractionDigits`` digits after the decimal point.
    public var defaultValue: Double?
    /// Shows the slider upright instead of across. Defaults to false.
    public var vertical: Bool
    /// Show values as percentages (0.25 as 25 %).
    public var percentStyle: Bool
    /// Text shown at the minimum end of the slider; nil for none.
    public var minimumDescription: String?
    /// Text shown at the maximum end of the slider; nil for none.
    public var maximumDescription: String?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a continuous scale format; see the properties for each setting's rules.
    public init(minimum: Double, maximum: Double, maximumFractionDigits: Int = 0, defaultValue: Double? = nil,
                vertical: Bool = false, percentStyle: Bool = false,
                minimumDescription: String? = nil, maximumDescription: String? = nil, dontKnow: DontKnowOption? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.maximumFractionDigits = maximumFractionDigits
        self.defaultValue = defaultValue
        self.vertical = vertical
        self.percentStyle = percentStyle
        self.minimumDescription = minimumDescription
        self.maximumDescription = maximumDescription
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey {
        case minimum, maximum, maximumFractionDigits, defaultValue, vertical, percentStyle, minimumDescription, maximumDescription, dontKnow
    }
    /// Reads the format; `minimum` and `maximum` are required, `maximumFractionDigits` defaults to 0, and
    /// `vertical` and `percentStyle` to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        minimum = try c.decode(Double.self, forKey: .minimum)
        maximum = try c.decode(Double.self, forKey: .maximum)
        maximumFractionDigits = try c.decodeIfPresent(Int.self, forKey: .maximumFractionDigits) ?? 0
        defaultValue = try c.decodeIfPresent(Double.self, forKey: .defaultValue)
        vertical = try c.decodeIfPresent(Bool.self, forKey: .vertical) ?? false
        percentStyle = try c.decodeIfPresent(Bool.self, forKey: .percentStyle) ?? false
        minimumDescription = try c.decodeIfPresent(String.self, forKey: .minimumDescription)
        maximumDescription = try c.decodeIfPresent(String.self, forKey: .maximumDescription)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

extension ScaleFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = [
        "minimum", "maximum", "step", "defaultValue", "vertical", "minimumDescription", "maximumDescription", "dontKnow",
    ]

    /// The smallest and largest values a scale or continuous scale may reach, as in ResearchKit.
    static let valueBounds: ClosedRange<Int> = -10_000...10_000
    /// The number of steps a scale may have, as in ResearchKit.
    static let stepCounts: ClosedRange<Int> = 1...13

    var wrongKindError: AnswerValidationError { .takesANumber }

    func addConstructionProblems(to problems: inout FormatProblems) {
        let bounds = Self.valueBounds
        if minimum < bounds.lowerBound {
            problems.add("minimum", "must be at least \(bounds.lowerBound) (is \(minimum))")
        }
        if maximum > bounds.upperBound {
            problems.add("maximum", "must be at most \(bounds.upperBound) (is \(maximum))")
        }
        if maximum <= minimum {
            problems.add("maximum", "must be greater than minimum (\(maximum) \(maximum == minimum ? "=" : "<") \(minimum))")
        }
        if step < 1 {
            problems.add("step", "must be at least 1 (is \(step))")
        }
        let (span, overflow) = maximum.subtractingReportingOverflow(minimum)
        if maximum > minimum, step >= 1, !overflow {
            if span % step != 0 {
                problems.add("step", "(maximum - minimum) must be divisible by step (\(span) is not a multiple of \(step))")
            }
            let steps = span / step
            let counts = Self.stepCounts
            if !counts.contains(steps) {
                problems.add("step", "a scale has \(counts.lowerBound) to \(counts.upperBound) steps; \(minimum)...\(maximum) in steps of \(step) gives \(steps)")
            }
        }
        if let value = defaultValue {
            if value < minimum || value > maximum {
                problems.add("defaultValue", "must be within minimum...maximum (\(minimum)...\(maximum)); is \(value)")
            } else if step >= 1, case let (offset, false) = value.subtractingReportingOverflow(minimum),
                      offset % step != 0 {
                problems.add("defaultValue", "must be on a step: minimum \(minimum) plus a multiple of \(step) (\(value) is not)")
            }
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .number(let value) = answer else { throw wrongKindError }
        guard AnswerNumbers.fits(value, fractionDigits: 0) else { throw AnswerValidationError(.enterWholeNumber) }
        let bounds: [String: AnswerValidationError.Value] = ["minimum": .integer(minimum), "maximum": .integer(maximum)]
        guard value >= Decimal(minimum), value <= Decimal(maximum) else { throw AnswerValidationError(.numberRange, bounds) }
        let (offset, overflow) = NSDecimalNumber(decimal: value).intValue.subtractingReportingOverflow(minimum)
        if step > 1, !overflow, offset % step != 0 {
            throw AnswerValidationError(.numberRangeInSteps, bounds.merging(["step": .integer(step)]) { old, _ in old })
        }
    }

    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        .number(try TextInput.number(trimmed, separator: context.decimalSeparator, whole: true))
    }

    func hint(in context: TextInputContext) -> String {
        "a whole number from \(minimum) to \(maximum), in steps of \(step)"
    }
}

extension ContinuousScaleFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = [
        "minimum", "maximum", "maximumFractionDigits", "defaultValue", "vertical", "percentStyle", "minimumDescription", "maximumDescription", "dontKnow",
    ]

    /// The fraction digits a continuous scale may show, as in ResearchKit.
    static let fractionDigitCounts: ClosedRange<Int> = 0...4

    var wrongKindError: AnswerValidationError { .takesANumber }

    func addConstructionProblems(to problems: inout FormatProblems) {
        let bounds = ScaleFormat.valueBounds
        let finite = minimum.isFinite && maximum.isFinite
        if !minimum.isFinite { problems.add("minimum", "must be a finite number (is \(minimum))") }
        if !maximum.isFinite { problems.add("maximum", "must be a finite number (is \(maximum))") }
        if minimum < Double(bounds.lowerBound) {
            problems.add("minimum", "must be at least \(bounds.lowerBound) (is \(AnswerNumbers.text(minimum)))")
        }
        if maximum > Double(bounds.upperBound) {
            problems.add("maximum", "must be at most \(bounds.upperBound) (is \(AnswerNumbers.text(maximum)))")
        }
        if finite, maximum <= minimum {
            problems.add("maximum", "must be greater than minimum (\(AnswerNumbers.text(maximum)) \(maximum == minimum ? "=" : "<") \(AnswerNumbers.text(minimum)))")
        }
        let digits = Self.fractionDigitCounts
        if !digits.contains(maximumFractionDigits) {
            problems.add("maximumFractionDigits", "must be from \(digits.lowerBound) to \(digits.upperBound) (is \(maximumFractionDigits))")
        }
        if let value = defaultValue {
            if !value.isFinite {
                problems.add("defaultValue", "must be a finite number (is \(value))")
            } else if finite, value < minimum || value > maximum {
                problems.add("defaultValue", "must be within minimum...maximum (\(AnswerNumbers.text(minimum))...\(AnswerNumbers.text(maximum))); is \(AnswerNumbers.text(value))")
            } else if digits.contains(maximumFractionDigits), let decimal = AnswerNumbers.decimal(value),
                      !AnswerNumbers.fits(percentStyle ? decimal * 100 : decimal, fractionDigits: maximumFractionDigits) {
                problems.add("defaultValue", "has more than \(AnswerNumbers.digitsPhrase(maximumFractionDigits)) after the decimal point (\(decimal))")
            }
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .number(let value) = answer else { throw wrongKindError }
        if let minimum = AnswerNumbers.decimal(minimum), let maximum = AnswerNumbers.decimal(maximum),
           value < minimum || value > maximum {
            var bounds: [String: AnswerValidationError.Value] = ["minimum": .number(minimum), "maximum": .number(maximum)]
            guard percentStyle else { throw AnswerValidationError(.numberRange, bounds) }
            bounds["minimumPercent"] = .number(minimum * 100)
            bounds["maximumPercent"] = .number(maximum * 100)
            throw AnswerValidationError(.percentRange, bounds)
        }
        // With percent style the digits count in the percentage shown (25 % of a 0–1 scale needs none),
        // as ResearchKit's slider shows them.
        let digits = max(0, maximumFractionDigits)
        let shown = percentStyle ? value * 100 : value
        guard AnswerNumbers.fits(shown, fractionDigits: digits) else {
            if percentStyle {
                throw digits == 0 ? AnswerValidationError(.enterWholePercentage) : AnswerValidationError(.percentFractionDigits, ["count": .integer(digits)])
            }
            throw digits == 0 ? AnswerValidationError(.enterWholeNumber) : AnswerNumbers.fractionDigitsError(digits)
        }
    }

    /// A number, or with percent style a percentage ending in `%` (25% is 0.25).
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        if percentStyle, trimmed.hasSuffix("%") {
            let number = String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces)
            return .number(try TextInput.number(number, separator: context.decimalSeparator, whole: false) / 100)
        }
        return .number(try TextInput.number(trimmed, separator: context.decimalSeparator, whole: false))
    }

    func hint(in context: TextInputContext) -> String {
        let low = AnswerNumbers.decimal(minimum).map(context.number) ?? "\(minimum)"
        let high = AnswerNumbers.decimal(maximum).map(context.number) ?? "\(maximum)"
        if percentStyle {
            let lowPercent = AnswerNumbers.decimal(minimum * 100).map(context.number) ?? "\(minimum * 100)"
            let highPercent = AnswerNumbers.decimal(maximum * 100).map(context.number) ?? "\(maximum * 100)"
            return maximumFractionDigits <= 0
                ? "a percentage from \(lowPercent)% to \(highPercent)%, as in 25%"
                : "a percentage from \(lowPercent)% to \(highPercent)%, up to \(AnswerNumbers.digitsPhrase(maximumFractionDigits)) after the decimal point"
        }
        return maximumFractionDigits <= 0
            ? "a whole number from \(low) to \(high)"
            : "a number from \(low) to \(high), up to \(AnswerNumbers.digitsPhrase(maximumFractionDigits)) after the decimal point"
    }

    func display(_ answer: Answer, decimalSeparator: String) -> String {
        guard percentStyle, case .number(let value) = answer else { return standardDisplay(answer, decimalSeparator: decimalSeparator) }
        return AnswerNumbers.numberText(value * 100, decimalSeparator: decimalSeparator) + "%"
    }
}

extension AnswerValidationError {
    /// The refusal of an answer that is not a number, by a format whose answer is a plain number.
    static let takesANumber = AnswerValidationError(.takesNumber)
}
