import Research

/// Builds the nine-hole peg test for a touch screen: a peg is picked up with two fingers and dragged into a hole
/// (place), then out past a line (remove), as many times as there are pegs, with the dominant hand and then the other.
/// As ResearchKit's, the peg moves only under two fingers, the way it would be pinched, and a drop counts when the
/// peg's centre lands within `threshold` × the peg's width of the hole's centre.
///
/// ```swift
/// let task = try HolePegTask.make(identifier: "pegs", dominantHand: .right, numberOfPegs: 9)
/// task.steps.map(\.identifier)
/// // ["instruction", "instruction1", "hole.peg.test.dominant.place", "hole.peg.test.dominant.remove",
/// //  "hole.peg.test.non.dominant.place", "hole.peg.test.non.dominant.remove", "conclusion"]
/// ```
public enum HolePegTask {
    /// A hand.
    public enum Hand: String, Hashable, Sendable, CaseIterable {
        case left, right
        var other: Hand { self == .left ? .right : .left }
    }

    /// The fewest and most pegs.
    public static let pegCounts: ClosedRange<Int> = 1...20
    /// The shortest and longest time for one step, in seconds.
    public static let timeLimits: ClosedRange<Double> = 10...600

    /// The test: `numberOfPegs` pegs each way with each hand, the dominant hand first, each step stopped after
    /// `timeLimit` seconds.
    public static func make(identifier: String, intendedUse: String? = nil, dominantHand: Hand = .right, numberOfPegs: Int = 9,
                            threshold: Double = 0.2, timeLimit: Double = 300, options: ActiveTaskOptions = [],
                            language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        let t = ActiveTaskWording(language: language)
        guard pegCounts.contains(numberOfPegs) else {
            throw ActiveTaskSettingsError(path: "numberOfPegs", message: "must be between \(pegCounts.lowerBound) and \(pegCounts.upperBound) (\(numberOfPegs))")
        }
        guard threshold.isFinite, (0.05...1).contains(threshold) else {
            throw ActiveTaskSettingsError(path: "threshold", message: "must be between 0.05 and 1, a share of the peg's width (\(PostedSamples.text(threshold)))")
        }
        guard timeLimit.isFinite, timeLimits.contains(timeLimit) else {
            throw ActiveTaskSettingsError(path: "timeLimit", message: "must be between 10 and 600 seconds (\(PostedSamples.text(timeLimit)))")
        }
        let title = t(.pegTitle)
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.pegUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: t(.pegHow, ["count": String(numberOfPegs)])),
        ]
        func step(_ hand: Hand, dominant: Bool, action: String) -> Step {
            // The peg moves towards the middle of the body: from the left edge for the right hand.
            let direction = hand == .right ? "right" : "left"
            return Step(identifier: "hole.peg.test.\(dominant ? "dominant" : "non.dominant").\(action)", kind: .active(ActiveStepContent(
                module: HolePegModule.name, duration: timeLimit, settings: [
                    "action": .text(action), "hand": .text(hand.rawValue), "dominant": .flag(dominant), "direction": .text(direction),
                    "numberOfPegs": .number(Double(numberOfPegs)), "threshold": .number(threshold),
                ])), title: t(hand == .right ? .rightHand : .leftHand), text: t(action == "place" ? .pegPlace : .pegRemove), isOptional: false)
        }
        let steps = [step(dominantHand, dominant: true, action: "place"), step(dominantHand, dominant: true, action: "remove"),
                     step(dominantHand.other, dominant: false, action: "place"), step(dominantHand.other, dominant: false, action: "remove")]
        return try ActiveTaskSteps.task(identifier: identifier, title: title, steps, introduction: introduction, options: options, t)
    }
}
