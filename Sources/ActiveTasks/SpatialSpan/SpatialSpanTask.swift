import Research

/// Builds the spatial span memory task (a Corsi block test): targets light up one after another, and the participant
/// taps them in the same order (or the reverse). The span grows by one after a success and shrinks by one after a
/// failure, between its limits; the test ends after its games or after too many failures in a row.
///
/// ```swift
/// let task = try SpatialSpanTask.make(identifier: "span", settings: SpatialSpanTask.Settings())
/// task.steps.map(\.identifier)   // ["instruction", "instruction1", "countdown.spatialSpan", "spatialSpan", "conclusion"]
/// ```
public enum SpatialSpanTask {
    /// The test's rules, as ResearchKit names them.
    public struct Settings: Hashable, Sendable {
        /// The span of the first game.
        public var initialSpan = 3
        /// The shortest span after failures.
        public var minimumSpan = 2
        /// The longest span after successes.
        public var maximumSpan = 9
        /// Seconds each target stays lit while the sequence plays.
        public var playSpeed = 1.0
        /// The most games.
        public var maximumTests = 12
        /// The failures in a row that end the test.
        public var maximumConsecutiveFailures = 3
        /// Tap the sequence in reverse order.
        public var requireReversal = false

        /// The default rules: span 3 (between 2 and 9), one target a second, 12 games, 3 failures in a row end it.
        public init() {}
    }

    /// The number of targets (a 3 × 3 board, as Corsi's nine blocks).
    public static let targetCount = 9

    /// The task with `settings`, which are checked.
    public static func make(identifier: String, intendedUse: String? = nil, settings: Settings = Settings(),
                            options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        try check(settings)
        let t = ActiveTaskWording(language: language)
        let title = t(.spanTitle)
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.spanUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: t(settings.requireReversal ? .spanHowReverse : .spanHowSame)),
        ]
        let step = Step(identifier: "spatialSpan", kind: .active(ActiveStepContent(module: SpatialSpanModule.name, settings: [
            "initialSpan": .number(Double(settings.initialSpan)), "minimumSpan": .number(Double(settings.minimumSpan)),
            "maximumSpan": .number(Double(settings.maximumSpan)), "playSpeed": .number(settings.playSpeed),
            "maximumTests": .number(Double(settings.maximumTests)), "maximumConsecutiveFailures": .number(Double(settings.maximumConsecutiveFailures)),
            "requireReversal": .flag(settings.requireReversal),
        ])), title: title, text: t(settings.requireReversal ? .spanStepReverse : .spanStepSame), isOptional: false)
        return try ActiveTaskSteps.task(identifier: identifier, title: title, ActiveTaskSteps.measured(step, t),
                                        introduction: introduction, options: options, t)
    }

    static func check(_ settings: Settings) throws(ActiveTaskSettingsError) {
        let spans = 2...targetCount
        for (name, value) in [("minimumSpan", settings.minimumSpan), ("initialSpan", settings.initialSpan), ("maximumSpan", settings.maximumSpan)]
            where !spans.contains(value) {
            throw ActiveTaskSettingsError(path: name, message: "must be between \(spans.lowerBound) and \(spans.upperBound), the number of targets (\(value))")
        }
        guard settings.minimumSpan <= settings.initialSpan, settings.initialSpan <= settings.maximumSpan else {
            throw ActiveTaskSettingsError(path: "initialSpan", message: "must lie between minimumSpan and maximumSpan (\(settings.minimumSpan) ≤ \(settings.initialSpan) ≤ \(settings.maximumSpan))")
        }
        guard settings.playSpeed.isFinite, (0.25...5).contains(settings.playSpeed) else {
            throw ActiveTaskSettingsError(path: "playSpeed", message: "must be between 0.25 and 5 seconds (\(PostedSamples.text(settings.playSpeed)))")
        }
        guard (1...50).contains(settings.maximumTests) else {
            throw ActiveTaskSettingsError(path: "maximumTests", message: "must be between 1 and 50 (\(settings.maximumTests))")
        }
        guard (1...settings.maximumTests).contains(settings.maximumConsecutiveFailures) else {
            throw ActiveTaskSettingsError(path: "maximumConsecutiveFailures", message: "must be between 1 and maximumTests, \(settings.maximumTests) (\(settings.maximumConsecutiveFailures))")
        }
    }

    /// The settings of an active step built by ``make(identifier:intendedUse:settings:options:)``.
    static func settings(of content: ActiveStepContent) -> Settings {
        var settings = Settings()
        settings.initialSpan = Int(content.number("initialSpan") ?? Double(settings.initialSpan))
        settings.minimumSpan = Int(content.number("minimumSpan") ?? Double(settings.minimumSpan))
        settings.maximumSpan = Int(content.number("maximumSpan") ?? Double(settings.maximumSpan))
        settings.playSpeed = content.number("playSpeed") ?? settings.playSpeed
        settings.maximumTests = Int(content.number("maximumTests") ?? Double(settings.maximumTests))
        settings.maximumConsecutiveFailures = Int(content.number("maximumConsecutiveFailures") ?? Double(settings.maximumConsecutiveFailures))
        settings.requireReversal = content.flag("requireReversal") ?? false
        return settings
    }
}
