import JSONDiagnostics
import Research

/// The active tasks a study can name, and how each is built from the settings a study file gives it.
///
/// In `study.yaml`: `active: {task: twoFingerTapping, duration: 20, hands: both}`. Every task takes `intendedUse`
/// (text), `excludeInstructions` and `excludeConclusion` (true or false) besides its own settings.
///
/// ```swift
/// let task = try ActiveTaskCatalog.task(named: "twoFingerTapping", identifier: "tapping",
///                                       settings: ["duration": .number("20"), "hands": .string("right")])
/// ```
public enum ActiveTaskCatalog {
    /// A task of the catalogue: its settings besides the common ones, and its factory.
    struct Entry: Sendable {
        let settings: [String]
        let make: @Sendable (_ identifier: String, _ settings: Settings, _ language: String) throws(ActiveTaskSettingsError) -> ResearchTask
    }

    /// The settings common to every task.
    static let commonSettings = ["intendedUse", "excludeInstructions", "excludeConclusion"]

    static let entries: [String: Entry] = [
        "twoFingerTapping": Entry(settings: ["duration", "hands"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try TappingTask.twoFingerInterval(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                                              duration: try settings.number("duration") ?? 20,
                                              hands: try settings.choice("hands", TappingTask.Hands.self) ?? .both, options: try settings.options(), language: language)
        },
        "tappingSpeed": Entry(settings: ["duration", "hands"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try TappingTask.speed(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                                  duration: try settings.number("duration") ?? 10,
                                  hands: try settings.choice("hands", TappingTask.Hands.self) ?? .right, options: try settings.options(), language: language)
        },
        "reactionTime": Entry(settings: ["trials", "minimumDelay", "maximumDelay", "timeout"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try ReactionTimeTask.normalized(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                                            trials: try settings.integer("trials") ?? 5, minimumDelay: try settings.number("minimumDelay") ?? 2,
                                            maximumDelay: try settings.number("maximumDelay") ?? 5, timeout: try settings.number("timeout") ?? 3,
                                            options: try settings.options(), language: language)
        },
        "stroop": Entry(settings: ["attempts"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try StroopTask.make(identifier: identifier, intendedUse: try settings.text("intendedUse"), attempts: try settings.integer("attempts") ?? 15,
                                options: try settings.options(), language: language)
        },
        "spatialSpan": Entry(settings: ["initialSpan", "minimumSpan", "maximumSpan", "playSpeed", "maximumTests", "maximumConsecutiveFailures",
                                        "requireReversal"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            var rules = SpatialSpanTask.Settings()
            rules.initialSpan = try settings.integer("initialSpan") ?? rules.initialSpan
            rules.minimumSpan = try settings.integer("minimumSpan") ?? rules.minimumSpan
            rules.maximumSpan = try settings.integer("maximumSpan") ?? rules.maximumSpan
            rules.playSpeed = try settings.number("playSpeed") ?? rules.playSpeed
            rules.maximumTests = try settings.integer("maximumTests") ?? rules.maximumTests
            rules.maximumConsecutiveFailures = try settings.integer("maximumConsecutiveFailures") ?? rules.maximumConsecutiveFailures
            rules.requireReversal = try settings.flag("requireReversal")
            return try SpatialSpanTask.make(identifier: identifier, intendedUse: try settings.text("intendedUse"), settings: rules,
                                            options: try settings.options(), language: language)
        },
        "trailMaking": Entry(settings: ["trailType"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try TrailMakingTask.make(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                                     trailType: try settings.choice("trailType", TrailMakingTask.TrailType.self) ?? .a, options: try settings.options(), language: language)
        },
        "towerOfHanoi": Entry(settings: ["numberOfDisks"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try TowerOfHanoiTask.make(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                                      numberOfDisks: try settings.integer("numberOfDisks") ?? 3, options: try settings.options(), language: language)
        },
        "psat": Entry(settings: ["presentationMode", "interStimulusInterval", "stimulusDuration", "seriesLength"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try PSATTask.make(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                              mode: try settings.choice("presentationMode", PSATTask.PresentationMode.self) ?? .visual,
                              interStimulusInterval: try settings.number("interStimulusInterval") ?? 3,
                              stimulusDuration: try settings.number("stimulusDuration") ?? 1, seriesLength: try settings.integer("seriesLength") ?? 60,
                              options: try settings.options(), language: language)
        },
        "amslerGrid": Entry(settings: []) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try AmslerGridTask.make(identifier: identifier, intendedUse: try settings.text("intendedUse"), options: try settings.options(), language: language)
        },
        "holePeg": Entry(settings: ["dominantHand", "numberOfPegs", "threshold", "timeLimit"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try HolePegTask.make(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                                 dominantHand: try settings.choice("dominantHand", HolePegTask.Hand.self) ?? .right,
                                 numberOfPegs: try settings.integer("numberOfPegs") ?? 9, threshold: try settings.number("threshold") ?? 0.2,
                                 timeLimit: try settings.number("timeLimit") ?? 300, options: try settings.options(), language: language)
        },
        "kneeRangeOfMotion": rangeOfMotion(.knee),
        "shoulderRangeOfMotion": rangeOfMotion(.shoulder),
        "tremorTest": Entry(settings: ["duration", "hands", "exclude", "frequency"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try TremorTask.make(identifier: identifier, intendedUse: try settings.text("intendedUse"), duration: try settings.number("duration") ?? 10,
                                hands: try settings.choice("hands", TappingTask.Hands.self) ?? .right,
                                excluding: Set(try settings.choices("exclude", TremorTask.Pose.self)), frequency: try settings.number("frequency") ?? 100,
                                options: try settings.options(), language: language)
        },
        "shakeReactionTime": Entry(settings: ["maximumStimulusInterval", "minimumStimulusInterval", "thresholdAcceleration", "numberOfAttempts", "timeout",
                                              "frequency"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try ShakeReactionTimeTask.make(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                                           maximumStimulusInterval: try settings.number("maximumStimulusInterval") ?? 10,
                                           minimumStimulusInterval: try settings.number("minimumStimulusInterval") ?? 4,
                                           thresholdAcceleration: try settings.number("thresholdAcceleration") ?? 0.5,
                                           numberOfAttempts: try settings.integer("numberOfAttempts") ?? 3, timeout: try settings.number("timeout") ?? 3,
                                           frequency: try settings.number("frequency") ?? 100, options: try settings.options(), language: language)
        },
        "shortWalk": Entry(settings: ["numberOfStepsPerLeg", "restDuration", "frequency"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try WalkTask.shortWalk(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                                   numberOfStepsPerLeg: try settings.integer("numberOfStepsPerLeg") ?? 20, restDuration: try settings.number("restDuration") ?? 20,
                                   frequency: try settings.number("frequency") ?? 60, options: try settings.options(), language: language)
        },
        "walkBackAndForth": walkThenRest(WalkTask.walkBackAndForth, walk: 180, rest: 180),
        "timedWalk": Entry(settings: ["distanceInMeters", "timeLimit", "turnAroundTimeLimit", "includeAssistiveDeviceForm", "frequency"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try WalkTask.timedWalk(identifier: identifier, intendedUse: try settings.text("intendedUse"),
                                   distanceInMeters: try settings.number("distanceInMeters") ?? 100, timeLimit: try settings.number("timeLimit") ?? 180,
                                   turnAroundTimeLimit: try settings.number("turnAroundTimeLimit") ?? 60,
                                   includeAssistiveDeviceForm: settings.values["includeAssistiveDeviceForm"] == nil ? true : try settings.flag("includeAssistiveDeviceForm"),
                                   frequency: try settings.number("frequency") ?? 60, options: try settings.options(), language: language)
        },
        "fitnessCheck": walkThenRest(WalkTask.fitnessCheck, walk: 360, rest: 180),
        "sixMinuteWalk": walkThenRest(WalkTask.sixMinuteWalk, walk: 360, rest: 180),
    ]

    /// A walk then a rest (`walkDuration`, `restDuration`, `frequency`) made by `make`, with the given default seconds
    /// and 30 readings a second unless the study says otherwise.
    private static func walkThenRest(
        _ make: @escaping @Sendable (_ identifier: String, _ intendedUse: String?, _ walkDuration: Double, _ restDuration: Double, _ frequency: Double,
                                     _ options: ActiveTaskOptions, _ language: String) throws(ActiveTaskSettingsError) -> ResearchTask,
        walk: Double, rest: Double
    ) -> Entry {
        Entry(settings: ["walkDuration", "restDuration", "frequency"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try make(identifier, try settings.text("intendedUse"), try settings.number("walkDuration") ?? walk, try settings.number("restDuration") ?? rest,
                     try settings.number("frequency") ?? 30, try settings.options(), language)
        }
    }

    /// The range-of-motion task of `joint`: `side` (left or right, ResearchKit's `limbOption`), `frequency`.
    private static func rangeOfMotion(_ joint: RangeOfMotionTask.Joint) -> Entry {
        Entry(settings: ["side", "frequency"]) { identifier, settings, language throws(ActiveTaskSettingsError) in
            try RangeOfMotionTask.make(identifier: identifier, joint: joint, side: try settings.choice("side", RangeOfMotionTask.Side.self) ?? .right,
                                       intendedUse: try settings.text("intendedUse"), frequency: try settings.number("frequency") ?? 60,
                                       options: try settings.options(), language: language)
        }
    }

    /// The names of every task, sorted.
    public static var names: [String] { entries.keys.sorted() }

    /// The task `name` built with `settings` (a study file's values by key) under `identifier`, its texts in `language`
    /// (one of the five built-in languages; others read English); throws naming the setting that is unknown or wrong.
    public static func task(named name: String, identifier: String, settings: [String: JSONTree],
                            language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        guard let entry = entries[name] else {
            let hint = JSONDiagnostics.closestKey(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw ActiveTaskSettingsError(path: "task", message: "'\(name)' is not an active task (\(names.joined(separator: ", ")))\(hint)")
        }
        let known = entry.settings + commonSettings
        if let unknown = settings.keys.sorted().first(where: { !known.contains($0) }) {
            throw ActiveTaskSettingsError(path: unknown, message: "is not a setting of \(name) (its settings: \(known.joined(separator: ", ")))")
        }
        return try entry.make(identifier, Settings(values: settings), language)
    }

    /// A study file's settings of one task, read by type with errors that name the setting.
    struct Settings: Sendable {
        let values: [String: JSONTree]

        func number(_ name: String) throws(ActiveTaskSettingsError) -> Double? {
            guard let value = values[name] else { return nil }
            guard let number = value.doubleValue, number.isFinite else {
                throw ActiveTaskSettingsError(path: name, message: "must be a number, found \(value.kindDescription)")
            }
            return number
        }

        func integer(_ name: String) throws(ActiveTaskSettingsError) -> Int? {
            guard let value = values[name] else { return nil }
            guard let integer = value.integerValue else {
                throw ActiveTaskSettingsError(path: name, message: "must be a whole number, found \(value.kindDescription == "a number" ? "a fraction" : value.kindDescription)")
            }
            return integer
        }

        func text(_ name: String) throws(ActiveTaskSettingsError) -> String? {
            guard let value = values[name] else { return nil }
            guard case .string(let text) = value else { throw ActiveTaskSettingsError(path: name, message: "must be text, found \(value.kindDescription)") }
            return text
        }

        func flag(_ name: String) throws(ActiveTaskSettingsError) -> Bool {
            guard let value = values[name] else { return false }
            guard case .bool(let flag) = value else { throw ActiveTaskSettingsError(path: name, message: "must be true or false, found \(value.kindDescription)") }
            return flag
        }

        func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _ type: Choice.Type) throws(ActiveTaskSettingsError) -> Choice?
            where Choice.RawValue == String {
            guard let text = try text(name) else { return nil }
            guard let choice = Choice(rawValue: text) else {
                throw ActiveTaskSettingsError(path: name, message: "is '\(text)'; expected one of \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return choice
        }

        /// A list of choices: an array of names (`[inLap, queenWave]`), each one of `type`'s; empty when not given.
        func choices<Choice: RawRepresentable & CaseIterable>(_ name: String, _ type: Choice.Type) throws(ActiveTaskSettingsError) -> [Choice]
            where Choice.RawValue == String {
            guard let value = values[name] else { return [] }
            guard case .array(let elements) = value else { throw ActiveTaskSettingsError(path: name, message: "must be a list, found \(value.kindDescription)") }
            var choices: [Choice] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let text) = element, let choice = Choice(rawValue: text) else {
                    throw ActiveTaskSettingsError(path: "\(name)[\(index)]", message: "must be one of \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                choices.append(choice)
            }
            return choices
        }

        func options() throws(ActiveTaskSettingsError) -> ActiveTaskOptions {
            var options: ActiveTaskOptions = []
            if try flag("excludeInstructions") { options.insert(.excludeInstructions) }
            if try flag("excludeConclusion") { options.insert(.excludeConclusion) }
            return options
        }
    }
}
