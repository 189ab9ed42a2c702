import Foundation

/// What kind of answer a question takes, with the rules that answer must follow.
///
/// Each case carries its own settings. ``validate(_:)`` checks an answer against them and
/// ``constructionProblems()`` checks the settings themselves (a scale of 0–10 in steps of 3 is refused).
/// In JSON a format is an object whose `type` names the case: `{"type": "scale", "minimum": 0, …}`.
public enum AnswerFormat: Hashable, Sendable {
    /// Yes or no; the answer is ``Answer/boolean(_:)``.
    case boolean(BooleanFormat)
    /// One or several texts from a list; the answer is ``Answer/choices(_:)``.
    case textChoice(TextChoiceFormat)
    /// One or several pictures; the answer is ``Answer/choices(_:)``.
    case imageChoice(ImageChoiceFormat)
    /// One value from a wheel or drop-down list; the answer is ``Answer/choices(_:)`` with one selection.
    case valuePicker(ValuePickerFormat)
    /// One value from each of several pickers; the answer is ``Answer/components(_:)``, one value per picker.
    case multipleValuePicker(MultipleValuePickerFormat)
    /// A slider over labelled positions; the answer is ``Answer/choices(_:)`` with one selection.
    case textScale(TextScaleFormat)
    /// A slider over whole numbers; the answer is ``Answer/number(_:)``.
    case scale(ScaleFormat)
    /// A slider over real numbers; the answer is ``Answer/number(_:)``.
    case continuousScale(ContinuousScaleFormat)
    /// A number typed in; the answer is ``Answer/number(_:)``.
    case numeric(NumericFormat)
    /// A body height; the answer is ``Answer/number(_:)`` in centimetres, whatever units the participant used.
    case height(HeightFormat)
    /// A body weight; the answer is ``Answer/number(_:)`` in kilograms, whatever units the participant used.
    case weight(WeightFormat)
    /// An age; the answer is ``Answer/number(_:)`` in whole years.
    case age(AgeFormat)
    /// A calendar day; the answer is ``Answer/date(_:)`` without a time. In JSON the bounds are written as days.
    case date(DateFormat)
    /// A day and a time; the answer is ``Answer/date(_:)`` with a time. In JSON the bounds are written as date-times.
    case dateTime(DateFormat)
    /// A time of day without a date; the answer is ``Answer/timeOfDay(_:)``.
    case timeOfDay(TimeOfDayFormat)
    /// A duration; the answer is ``Answer/timeInterval(_:)`` in seconds.
    case timeInterval(TimeIntervalFormat)
    /// Free text; the answer is ``Answer/text(_:)``.
    case text(TextFormat)
    /// An email address; the answer is ``Answer/text(_:)``, stored without surrounding white space.
    case email(EmailFormat)
    /// A place; the answer is ``Answer/location(_:)``.
    case location(LocationFormat)
    /// A rung of the social status ladder; the answer is ``Answer/number(_:)``, 1 for the bottom rung.
    case sesLadder(SESLadderFormat)
    /// A file the participant attaches; the answer is ``Answer/file(_:)``.
    case file(FileFormat)

    /// The name of the format in JSON and in question results.
    public var type: AnswerFormatType {
        switch self {
        case .boolean: .boolean
        case .textChoice: .textChoice
        case .imageChoice: .imageChoice
        case .valuePicker: .valuePicker
        case .multipleValuePicker: .multipleValuePicker
        case .textScale: .textScale
        case .scale: .scale
        case .continuousScale: .continuousScale
        case .numeric: .numeric
        case .height: .height
        case .weight: .weight
        case .age: .age
        case .date: .date
        case .dateTime: .dateTime
        case .timeOfDay: .timeOfDay
        case .timeInterval: .timeInterval
        case .text: .text
        case .email: .email
        case .location: .location
        case .sesLadder: .sesLadder
        case .file: .file
        }
    }

    /// The "I don't know" option, for the formats that may offer one.
    public var dontKnow: DontKnowOption? {
        switch self {
        case .boolean(let f): f.dontKnow
        case .scale(let f): f.dontKnow
        case .continuousScale(let f): f.dontKnow
        case .numeric(let f): f.dontKnow
        case .height(let f): f.dontKnow
        case .weight(let f): f.dontKnow
        case .age(let f): f.dontKnow
        case .date(let f), .dateTime(let f): f.dontKnow
        case .timeOfDay(let f): f.dontKnow
        case .timeInterval(let f): f.dontKnow
        case .text(let f): f.dontKnow
        case .textChoice, .imageChoice, .valuePicker, .multipleValuePicker, .textScale, .email, .location, .sesLadder, .file: nil
        }
    }

    /// The unit the answer is stored in, which question results carry: "cm" for height, "kg" for weight,
    /// "years" for age, "s" for a time interval, the numeric format's own unit; nil for the other formats.
    public var unit: String? {
        switch self {
        case .numeric(let f): f.unit
        case .height: "cm"
        case .weight: "kg"
        case .age: "years"
        case .timeInterval: "s"
        default: nil
        }
    }
}

/// The names of the answer formats, as they appear in JSON (`"type": "textChoice"`) and in question results.
public enum AnswerFormatType: String, Hashable, Sendable, Codable, CaseIterable {
    /// The yes-or-no, choice and slider formats; each name is that of the matching ``AnswerFormat`` case.
    case boolean, textChoice, imageChoice, valuePicker, multipleValuePicker, textScale, scale, continuousScale
    /// The typed, date and time, text and place formats; each name is that of the matching ``AnswerFormat`` case.
    case numeric, height, weight, age, date, dateTime, timeOfDay, timeInterval, text, email, location, sesLadder
    /// A file the participant attaches.
    case file

    /// The shape of the answers this format produces.
    public var answerKind: AnswerKind {
        switch self {
        case .boolean: .boolean
        case .textChoice, .imageChoice, .valuePicker, .textScale: .choices
        case .multipleValuePicker: .components
        case .scale, .continuousScale, .numeric, .height, .weight, .age, .sesLadder: .number
        case .date, .dateTime: .date
        case .timeOfDay: .timeOfDay
        case .timeInterval: .timeInterval
        case .text, .email: .text
        case .location: .location
        case .file: .file
        }
    }
}

/// An "I don't know" button offered beside a question; choosing it records ``Answer/dontKnow``.
public struct DontKnowOption: Hashable, Sendable, Codable {
    /// The button's text; the string table's "I don't know" when nil.
    public var text: String?
    /// Creates the option; a nil `text` shows the standard "I don't know". A text given must not be blank.
    public init(text: String? = nil) { self.text = text }
}

/// Yes or no, with optional custom texts for the two answers.
public struct BooleanFormat: Hashable, Sendable, Codable {
    /// The text of the yes answer; "Yes" when nil. Must not be blank, and must differ from the no text (ignoring case).
    public var yesText: String?
    /// The text of the no answer; "No" when nil. Must not be blank, and must differ from the yes text (ignoring case).
    public var noText: String?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a yes-or-no format; see the properties for each setting's rules.
    public init(yesText: String? = nil, noText: String? = nil, dontKnow: DontKnowOption? = nil) {
        self.yesText = yesText
        self.noText = noText
        self.dontKnow = dontKnow
    }
}

/// Whether one choice or several may be chosen.
public enum ChoiceStyle: String, Hashable, Sendable, Codable {
    /// `single`: exactly one choice is chosen; `multiple`: one or more are.
    case single, multiple
}

/// One option of a choice format: ``TextChoice`` or ``ImageChoice``. What the rules of ``ChoiceFormat`` need of an
/// option, whatever it shows.
public protocol ChoiceOption: Hashable, Sendable, Codable {
    /// The text shown for the option (an image's accessible name); must not be blank.
    var text: String { get }
    /// The value stored in results; distinct among the format's options.
    var value: ChoiceValue { get }
    /// Whether choosing this option clears every other (multiple choice only).
    var exclusive: Bool { get }
    /// The free-text field of an "other" option; nil for an option without one.
    var other: OtherChoice? { get }
}

/// One option of a choice question.
public struct TextChoice: ChoiceOption {
    /// The text shown.
    public var text: String
    /// The value stored in results.
    public var value: ChoiceValue
    /// Smaller text shown under the choice.
    public var detailText: String?
    /// Choosing this option clears every other; choosing another clears this one (multiple choice only).
    public var exclusive: Bool
    /// When set, this is an "other" choice that comes with a free-text field.
    public var other: OtherChoice?

    /// Creates a choice; see the properties for each setting's rules.
    public init(text: String, value: ChoiceValue, detailText: String? = nil, exclusive: Bool = false, other: OtherChoice? = nil) {
        self.text = text
        self.value = value
        self.detailText = detailText
        self.exclusive = exclusive
        self.other = other
    }

    private enum CodingKeys: String, CodingKey { case text, value, detailText, exclusive, other }

    /// Reads a choice; `exclusive` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        value = try c.decode(ChoiceValue.self, forKey: .value)
        detailText = try c.decodeIfPresent(String.self, forKey: .detailText)
        exclusive = try c.decodeIfPresent(Bool.self, forKey: .exclusive) ?? false
        other = try c.decodeIfPresent(OtherChoice.self, forKey: .other)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encode(value, forKey: .value)
        try c.encodeIfPresent(detailText, forKey: .detailText)
        if exclusive { try c.encode(true, forKey: .exclusive) }
        try c.encodeIfPresent(other, forKey: .other)
    }
}

/// The free-text field of an "other" choice.
public struct OtherChoice: Hashable, Sendable, Codable {
    /// Placeholder shown in the empty field.
    public var placeholder: String?
    /// Whether the text must be filled in when the choice is chosen.
    public var textRequired: Bool
    /// Creates the free-text field of an "other" choice; see the properties for each setting's rules.
    public init(placeholder: String? = nil, textRequired: Bool = false) {
        self.placeholder = placeholder
        self.textRequired = textRequired
    }
    private enum CodingKeys: String, CodingKey { case placeholder, textRequired }
    /// Reads the field; `textRequired` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        placeholder = try c.decodeIfPresent(String.self, forKey: .placeholder)
        textRequired = try c.decodeIfPresent(Bool.self, forKey: .textRequired) ?? false
    }
}

/// One option of an image choice question.
public struct ImageChoice: ChoiceOption {
    /// The image shown when not selected.
    public var image: ImageReference
    /// The image shown when selected; the normal image when nil.
    public var selectedImage: ImageReference?
    /// Text shown for the choice, and its accessible name.
    public var text: String
    /// The value stored in results; distinct among the format's choices.
    public var value: ChoiceValue
    /// Creates an image choice; see the properties for each setting's rules.
    public init(image: ImageReference, selectedImage: ImageReference? = nil, text: String, value: ChoiceValue) {
        self.image = image
        self.selectedImage = selectedImage
        self.text = text
        self.value = value
    }
    /// Always false: a picture cannot clear the other choices.
    public var exclusive: Bool { false }
    /// Always nil: a picture has no free-text field.
    public var other: OtherChoice? { nil }
}

/// Choose one or several options from a list: texts (``TextChoiceFormat``) or pictures (``ImageChoiceFormat``).
///
/// Both kinds follow the same rules, checked once here: at least one option, texts and string values not blank,
/// values distinct (`2` and `2.0` count as the same value), and `exclusive` only in the `multiple` style.
/// In JSON: `{"style": "multiple", "choices": [...]}`, `style` defaulting to `single`.
public struct ChoiceFormat<Option: ChoiceOption>: Hashable, Sendable, Codable {
    /// Whether one choice or several may be chosen. Defaults to `single`.
    public var style: ChoiceStyle
    /// The options, in the order shown; at least one. Texts and string values must not be blank, and values
    /// must be distinct (`2` and `2.0` count as the same value). Only the `multiple` style allows `exclusive`.
    public var choices: [Option]
    /// Creates a choice format; see the properties for each setting's rules.
    public init(style: ChoiceStyle = .single, choices: [Option]) {
        self.style = style
        self.choices = choices
    }
    private enum CodingKeys: String, CodingKey { case style, choices }
    /// Reads the format; `style` defaults to single choice.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        style = try c.decodeIfPresent(ChoiceStyle.self, forKey: .style) ?? .single
        choices = try c.decode([Option].self, forKey: .choices)
    }
}

/// Choose one or several of a list of texts.
public typealias TextChoiceFormat = ChoiceFormat<TextChoice>

/// Choose one or several pictures.
public typealias ImageChoiceFormat = ChoiceFormat<ImageChoice>

/// Choose one value from a wheel or drop-down list.
public struct ValuePickerFormat: Hashable, Sendable, Codable {
    /// The values, in the order listed; at least one. Texts and string values must not be blank, and values
    /// must be distinct; a picker's choices cannot be `exclusive` or have an `other` field.
    public var choices: [TextChoice]
    /// Creates a value picker; see ``choices`` for the rules.
    public init(choices: [TextChoice]) { self.choices = choices }
}

/// Several pickers side by side (for example feet and inches); the answer has one value per picker.
public struct MultipleValuePickerFormat: Hashable, Sendable, Codable {
    /// The pickers, left to right; at least 2, each following the value picker's rules. The answer holds one
    /// value per picker, in this order.
    public var pickers: [ValuePickerFormat]
    /// Text shown between the pickers' values when the answer is displayed.
    public var separator: String
    /// Creates a multiple value picker; see the properties for each setting's rules.
    public init(pickers: [ValuePickerFormat], separator: String = " ") {
        self.pickers = pickers
        self.separator = separator
    }
    private enum CodingKeys: String, CodingKey { case pickers, separator }
    /// Reads the format; `separator` defaults to a single space.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pickers = try c.decode([ValuePickerFormat].self, forKey: .pickers)
        separator = try c.decodeIfPresent(String.self, forKey: .separator) ?? " "
    }
}

/// A slider over 2 to 8 labelled positions.
public struct TextScaleFormat: Hashable, Sendable, Codable {
    /// The positions, from the start of the slider to its end; 2 to 8 of them. Texts and string values must
    /// not be blank, and values must be distinct; positions cannot be `exclusive` or have an `other` field.
    public var choices: [TextChoice]
    /// Index of the position the slider starts at.
    public var defaultIndex: Int?
    /// Shows the slider upright instead of across. Defaults to false.
    public var vertical: Bool
    /// Creates a text scale; see the properties for each setting's rules.
    public init(choices: [TextChoice], defaultIndex: Int? = nil, vertical: Bool = false) {
        self.choices = choices
        self.defaultIndex = defaultIndex
        self.vertical = vertical
    }
    private enum CodingKeys: String, CodingKey { case choices, defaultIndex, vertical }
    /// Reads the format; `vertical` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        choices = try c.decode([TextChoice].self, forKey: .choices)
        defaultIndex = try c.decodeIfPresent(Int.self, forKey: .defaultIndex)
        vertical = try c.decodeIfPresent(Bool.self, forKey: .vertical) ?? false
    }
}

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

/// Whether a numeric answer is a whole number or may have a fraction.
public enum NumericStyle: String, Hashable, Sendable, Codable {
    /// `integer`: whole numbers only; `decimal`: numbers with a fraction, up to
    /// ``NumericFormat/maximumFractionDigits`` digits.
    case integer, decimal
}

/// A number typed in, with an optional unit and inclusive bounds.
public struct NumericFormat: Hashable, Sendable, Codable {
    /// Whether the answer must be a whole number. Required in JSON; an integer format's bounds must be whole numbers.
    public var style: NumericStyle
    /// The unit shown with the number and stored in its question result, such as "mg"; nil for none.
    /// Must not be blank. A typed answer may end with it ("5 mg").
    public var unit: String?
    /// Smallest accepted value (inclusive).
    public var minimum: Decimal?
    /// Largest accepted value (inclusive).
    public var maximum: Decimal?
    /// Most digits after the decimal point (decimal style); unlimited when nil.
    public var maximumFractionDigits: Int?
    /// The value the field starts with; nil for none. Must lie within the bounds and have no more fraction
    /// digits than the style allows.
    public var defaultValue: Decimal?
    /// Text shown in the empty field; nil for none.
    public var placeholder: String?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a numeric format; see the properties for each setting's rules.
    public init(style: NumericStyle, unit: String? = nil, minimum: Decimal? = nil, maximum: Decimal? = nil,
                maximumFractionDigits: Int? = nil, defaultValue: Decimal? = nil, placeholder: String? = nil, dontKnow: DontKnowOption? = nil) {
        self.style = style
        self.unit = unit
        self.minimum = minimum
        self.maximum = maximum
        self.maximumFractionDigits = maximumFractionDigits
        self.defaultValue = defaultValue
        self.placeholder = placeholder
        self.dontKnow = dontKnow
    }
}

/// How lengths and weights are entered: metric (cm, kg), US customary (feet and inches, pounds and ounces),
/// or whatever the participant's locale uses.
public enum MeasurementSystem: String, Hashable, Sendable, Codable {
    /// `metric`: cm and kg; `usCustomary`: feet and inches, pounds and ounces; `local`: what the participant's locale uses.
    case metric, usCustomary, local
}

/// A body height; the answer is always stored in centimetres.
public struct HeightFormat: Hashable, Sendable, Codable {
    /// The units the participant enters the height in; the answer is stored in cm whatever the system. Defaults to `local`.
    public var measurementSystem: MeasurementSystem
    /// Smallest accepted height in cm.
    public var minimum: Decimal?
    /// Largest accepted height in cm.
    public var maximum: Decimal?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a height format; see the properties for each setting's rules.
    public init(measurementSystem: MeasurementSystem = .local, minimum: Decimal? = nil, maximum: Decimal? = nil, dontKnow: DontKnowOption? = nil) {
        self.measurementSystem = measurementSystem
        self.minimum = minimum
        self.maximum = maximum
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case measurementSystem, minimum, maximum, dontKnow }
    /// Reads the format; `measurementSystem` defaults to `local`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        measurementSystem = try c.decodeIfPresent(MeasurementSystem.self, forKey: .measurementSystem) ?? .local
        minimum = try c.decodeIfPresent(Decimal.self, forKey: .minimum)
        maximum = try c.decodeIfPresent(Decimal.self, forKey: .maximum)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

/// How finely a weight is stored in kilograms: default (whole kg), low (0.1 kg), high (0.01 kg).
public enum WeightPrecision: String, Hashable, Sendable, Codable {
    /// `default`: whole kilograms; `low`: to 0.1 kg; `high`: to 0.01 kg.
    case `default`, low, high

    /// Largest number of fraction digits of the stored kilograms.
    public var maximumFractionDigits: Int {
        switch self {
        case .default: 0
        case .low: 1
        case .high: 2
        }
    }
}

/// A body weight; the answer is always stored in kilograms.
public struct WeightFormat: Hashable, Sendable, Codable {
    /// The units the participant enters the weight in; the answer is stored in kg whatever the system. Defaults to `local`.
    public var measurementSystem: MeasurementSystem
    /// How many digits after the decimal point the stored kilograms may have. Defaults to `default` (whole kilograms).
    public var precision: WeightPrecision
    /// Smallest accepted weight in kg.
    public var minimum: Decimal?
    /// Largest accepted weight in kg.
    public var maximum: Decimal?
    /// The weight the field starts with, in kg; nil for none. Must be greater than 0, lie within the bounds and
    /// fit ``precision``.
    public var defaultValue: Decimal?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a weight format; see the properties for each setting's rules.
    public init(measurementSystem: MeasurementSystem = .local, precision: WeightPrecision = .default, minimum: Decimal? = nil,
                maximum: Decimal? = nil, defaultValue: Decimal? = nil, dontKnow: DontKnowOption? = nil) {
        self.measurementSystem = measurementSystem
        self.precision = precision
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case measurementSystem, precision, minimum, maximum, defaultValue, dontKnow }
    /// Reads the format; `measurementSystem` defaults to `local` and `precision` to `default`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        measurementSystem = try c.decodeIfPresent(MeasurementSystem.self, forKey: .measurementSystem) ?? .local
        precision = try c.decodeIfPresent(WeightPrecision.self, forKey: .precision) ?? .default
        minimum = try c.decodeIfPresent(Decimal.self, forKey: .minimum)
        maximum = try c.decodeIfPresent(Decimal.self, forKey: .maximum)
        defaultValue = try c.decodeIfPresent(Decimal.self, forKey: .defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

/// An age in whole years.
public struct AgeFormat: Hashable, Sendable, Codable {
    /// Youngest accepted age in years, inclusive; not negative. Defaults to 0.
    public var minimumAge: Int
    /// Oldest accepted age in years, inclusive; greater than ``minimumAge`` and at most 150. Defaults to 125.
    public var maximumAge: Int
    /// The age the field starts with; nil for none. Must lie within ``minimumAge``...``maximumAge``.
    public var defaultValue: Int?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates an age format; see the properties for each setting's rules.
    public init(minimumAge: Int = 0, maximumAge: Int = 125, defaultValue: Int? = nil, dontKnow: DontKnowOption? = nil) {
        self.minimumAge = minimumAge
        self.maximumAge = maximumAge
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case minimumAge, maximumAge, defaultValue, dontKnow }
    /// Reads the format; `minimumAge` defaults to 0 and `maximumAge` to 125.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        minimumAge = try c.decodeIfPresent(Int.self, forKey: .minimumAge) ?? 0
        maximumAge = try c.decodeIfPresent(Int.self, forKey: .maximumAge) ?? 125
        defaultValue = try c.decodeIfPresent(Int.self, forKey: .defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

/// A day (`date`) or a day and time (`dateTime`) between optional bounds.
///
/// In JSON the bounds and default are ISO 8601: `"2026-01-31"` for a date format, with offset for a date-time format.
public struct DateFormat: Hashable, Sendable, Codable {
    /// Earliest accepted answer, inclusive; nil for no lower bound. For a date format only the day it falls on
    /// in UTC counts.
    public var minimum: Date?
    /// Latest accepted answer, inclusive; nil for no upper bound. Must be later than ``minimum``
    /// (on a later UTC day, for a date format).
    public var maximum: Date?
    /// The date the picker starts at; nil for none. Must not lie before ``minimum`` or after ``maximum``.
    public var defaultValue: Date?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a date format; see the properties for each setting's rules.
    public init(minimum: Date? = nil, maximum: Date? = nil, defaultValue: Date? = nil, dontKnow: DontKnowOption? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case minimum, maximum, defaultValue, dontKnow }
    /// Reads the format; each date is an ISO 8601 day (`2026-01-31`, read as the start of that day in UTC)
    /// or a date-time with an offset.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> Date? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            if let value = ISO8601.date(from: text) { return value }
            if let day = ISO8601.day(from: text) {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = .gmt
                let components = DateComponents(year: day.year, month: day.month, day: day.day)
                if components.isValidDate(in: calendar), let value = calendar.date(from: components) { return value }
            }
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(text)' is not an ISO 8601 date (YYYY-MM-DD) or date-time with offset")
        }
        minimum = try date(.minimum)
        maximum = try date(.maximum)
        defaultValue = try date(.defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
    /// Writes the dates as ISO 8601 date-times in UTC; an ``AnswerFormat/date(_:)`` format writes them as days instead.
    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, daysOnly: false)
    }

    /// Writes the bounds as days (`"2026-01-31"`, the UTC day the decoder reads them as) for a date format,
    /// or as date-times for a date-time format.
    func encode(to encoder: any Encoder, daysOnly: Bool) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let write: (Date) -> String = { daysOnly ? ISO8601.dayString(from: $0, in: .gmt) : ISO8601.string(from: $0) }
        try c.encodeIfPresent(minimum.map(write), forKey: .minimum)
        try c.encodeIfPresent(maximum.map(write), forKey: .maximum)
        try c.encodeIfPresent(defaultValue.map(write), forKey: .defaultValue)
        try c.encodeIfPresent(dontKnow, forKey: .dontKnow)
    }
}

/// A time of day.
public struct TimeOfDayFormat: Hashable, Sendable, Codable {
    /// The time the picker starts at; nil for none. Must be a valid time (hours 0–23, minutes and seconds 0–59).
    public var defaultValue: TimeOfDay?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a time of day format; see the properties for each setting's rules.
    public init(defaultValue: TimeOfDay? = nil, dontKnow: DontKnowOption? = nil) {
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
}

/// A duration, in whole minutes, up to a maximum.
public struct TimeIntervalFormat: Hashable, Sendable, Codable {
    /// Longest accepted duration in seconds.
    public var maximum: TimeInterval
    /// The duration must be a whole multiple of this many minutes (1–30).
    public var stepMinutes: Int
    /// The duration the picker starts at, in seconds; nil for none. From 0 to ``maximum``, and a whole multiple
    /// of ``stepMinutes``.
    public var defaultValue: TimeInterval?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a time interval format; see the properties for each setting's rules.
    public init(maximum: TimeInterval = 86_400 - 60, stepMinutes: Int = 1, defaultValue: TimeInterval? = nil, dontKnow: DontKnowOption? = nil) {
        self.maximum = maximum
        self.stepMinutes = stepMinutes
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey { case maximum, stepMinutes, defaultValue, dontKnow }
    /// Reads the format; `maximum` defaults to 86,340 seconds (23 h 59 min) and `stepMinutes` to 1.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maximum = try c.decodeIfPresent(TimeInterval.self, forKey: .maximum) ?? 86_400 - 60
        stepMinutes = try c.decodeIfPresent(Int.self, forKey: .stepMinutes) ?? 1
        defaultValue = try c.decodeIfPresent(TimeInterval.self, forKey: .defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

/// Free text, one line or several, optionally limited in length or checked by a pattern.
public struct TextFormat: Hashable, Sendable, Codable {
    /// Most characters accepted; unlimited when nil.
    public var maximumLength: Int?
    /// Whether the answer may contain line breaks. Defaults to false.
    public var multipleLines: Bool
    /// A regular expression the whole answer must match; requires ``invalidMessage``.
    public var validationPattern: String?
    /// The message shown when the answer does not match ``validationPattern``.
    public var invalidMessage: String?
    /// Text shown in the empty field; nil for none.
    public var placeholder: String?
    /// The text the field starts with; nil for none. Must respect ``maximumLength``, ``multipleLines`` and
    /// ``validationPattern``.
    public var defaultValue: String?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a text format; see the properties for each setting's rules.
    public init(maximumLength: Int? = nil, multipleLines: Bool = false, validationPattern: String? = nil,
                invalidMessage: String? = nil, placeholder: String? = nil, defaultValue: String? = nil, dontKnow: DontKnowOption? = nil) {
        self.maximumLength = maximumLength
        self.multipleLines = multipleLines
        self.validationPattern = validationPattern
        self.invalidMessage = invalidMessage
        self.placeholder = placeholder
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey {
        case maximumLength, multipleLines, validationPattern, invalidMessage, placeholder, defaultValue, dontKnow
    }
    /// Reads the format; `multipleLines` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maximumLength = try c.decodeIfPresent(Int.self, forKey: .maximumLength)
        multipleLines = try c.decodeIfPresent(Bool.self, forKey: .multipleLines) ?? false
        validationPattern = try c.decodeIfPresent(String.self, forKey: .validationPattern)
        invalidMessage = try c.decodeIfPresent(String.self, forKey: .invalidMessage)
        placeholder = try c.decodeIfPresent(String.self, forKey: .placeholder)
        defaultValue = try c.decodeIfPresent(String.self, forKey: .defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

/// An email address.
public struct EmailFormat: Hashable, Sendable, Codable {
    /// Text shown in the empty field; nil for none.
    public var placeholder: String?
    /// Creates an email format.
    public init(placeholder: String? = nil) { self.placeholder = placeholder }
}

/// A place, as address text with optional coordinates.
public struct LocationFormat: Hashable, Sendable, Codable {
    /// Offer the device's current position (the browser asks the participant first).
    public var useCurrentLocation: Bool
    /// Creates a location format; the current position is offered unless `useCurrentLocation` is false.
    public init(useCurrentLocation: Bool = true) { self.useCurrentLocation = useCurrentLocation }
    private enum CodingKeys: String, CodingKey { case useCurrentLocation }
    /// Reads the format; `useCurrentLocation` defaults to true.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        useCurrentLocation = try c.decodeIfPresent(Bool.self, forKey: .useCurrentLocation) ?? true
    }
}

/// The MacArthur subjective social status ladder: the participant picks a rung, 1 at the bottom.
public struct SESLadderFormat: Hashable, Sendable, Codable {
    /// How many rungs the ladder has (2–20, usually 10).
    public var numberOfRungs: Int
    /// Text shown at the top of the ladder; nil for none.
    public var topRungText: String?
    /// Text shown at the bottom of the ladder; nil for none.
    public var bottomRungText: String?
    /// Creates a ladder format; see the properties for each setting's rules.
    public init(numberOfRungs: Int = 10, topRungText: String? = nil, bottomRungText: String? = nil) {
        self.numberOfRungs = numberOfRungs
        self.topRungText = topRungText
        self.bottomRungText = bottomRungText
    }
    private enum CodingKeys: String, CodingKey { case numberOfRungs, topRungText, bottomRungText }
    /// Reads the format; `numberOfRungs` defaults to 10.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        numberOfRungs = try c.decodeIfPresent(Int.self, forKey: .numberOfRungs) ?? 10
        topRungText = try c.decodeIfPresent(String.self, forKey: .topRungText)
        bottomRungText = try c.decodeIfPresent(String.self, forKey: .bottomRungText)
    }
}
