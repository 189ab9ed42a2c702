import Foundation

/// A step in which the participant performs a short test while the device measures (ResearchKit's active step):
/// tapping, a reaction-time trial, a countdown.
///
/// The step names the browser module that runs it and gives the module its settings; what the module measured comes
/// back as an ``ActiveStepResult``. The factories of the `ActiveTasks` module build these steps; a task file may also
/// carry them (`"type": "active"`).
///
/// ```swift
/// let tapping = Step(identifier: "tapping.right", kind: .active(ActiveStepContent(
///     module: "tapping", duration: 20, settings: ["hand": .text("right"), "targets": .number(2)])),
///     title: "Right hand", text: "Tap the two buttons in turn with two fingers.", isOptional: false)
/// ```
public struct ActiveStepContent: Hashable, Sendable, Codable {
    /// The module that runs the step in the browser and reads what it posts, such as `tapping` or `countdown`.
    public var module: String
    /// How long the step measures, in seconds; nil when the step ends as the participant finishes it.
    public var duration: Double?
    /// The module's settings by name: numbers, texts and flags, as the module documents them.
    public var settings: [String: ActiveSetting]

    /// Creates the content of an active step run by `module` for `duration` seconds (nil: until done) with `settings`.
    public init(module: String, duration: Double? = nil, settings: [String: ActiveSetting] = [:]) {
        self.module = module
        self.duration = duration
        self.settings = settings
    }

    /// The number setting `name`; nil when absent or not a number.
    public func number(_ name: String) -> Double? {
        if case .number(let value)? = settings[name] { value } else { nil }
    }

    /// The text setting `name`; nil when absent or not a text.
    public func text(_ name: String) -> String? {
        if case .text(let value)? = settings[name] { value } else { nil }
    }

    /// The flag setting `name`; nil when absent or not a flag.
    public func flag(_ name: String) -> Bool? {
        if case .flag(let value)? = settings[name] { value } else { nil }
    }

    private enum CodingKeys: String, CodingKey { case module, duration, settings }

    /// Reads the content; `duration` may be absent and `settings` defaults to none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        module = try c.decode(String.self, forKey: .module)
        duration = try c.decodeIfPresent(Double.self, forKey: .duration)
        settings = try c.decodeIfPresent([String: ActiveSetting].self, forKey: .settings) ?? [:]
    }

    /// Writes `module`, and `duration` and `settings` when there are any.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(module, forKey: .module)
        try c.encodeIfPresent(duration, forKey: .duration)
        if !settings.isEmpty { try c.encode(settings, forKey: .settings) }
    }
}

/// One setting of an active step: a number, a text or a flag (JSON: the bare value).
public enum ActiveSetting: Hashable, Sendable, Codable {
    /// A number, such as a duration or a count.
    case number(Double)
    /// A text, such as which hand.
    case text(String)
    /// A yes or no.
    case flag(Bool)

    /// Reads a JSON boolean, number or string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let flag = try? c.decode(Bool.self) {
            self = .flag(flag)
        } else if let number = try? c.decode(Double.self) {
            self = .number(number)
        } else {
            self = .text(try c.decode(String.self))
        }
    }

    /// Writes the bare value.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let value): try c.encode(value)
        case .text(let value): try c.encode(value)
        case .flag(let value): try c.encode(value)
        }
    }
}
