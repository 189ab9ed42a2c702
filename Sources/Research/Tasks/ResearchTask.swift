import Foundation
import JSONDiagnostics

/// A task: an identified sequence of steps, with optional navigation and skip rules.
///
/// Without rules it is an ordered task: each step leads to the next in the array. Navigation rules make it
/// navigable: after a step, its rule picks the next step from the answers so far (or ends the task), and a
/// skip rule on a step passes over it when its condition holds. Rules may jump backwards; the session then
/// keeps the earlier pass as a previous result.
///
/// ```swift
/// let task = try ResearchTask(identifier: "pain", steps: [intro, level, followUp, done],
///                             navigationRules: ["level": .conditional([.init(if: try Condition(parsing: "level < 7"), goTo: .step("done"))])])
/// ```
public struct ResearchTask: Hashable, Sendable, Identifiable {
    /// Identifies the task in results and in other tasks' conditions; must not be blank.
    public var identifier: String
    /// The task's name as participants see it; nil for none.
    public var title: String?
    /// The steps in order; identifiers must be unique (the initialiser throws otherwise) and must not start
    /// with `$`, which destinations such as `$end` reserve.
    public var steps: [Step]
    /// Rules applied after leaving a step, by step identifier.
    public var navigationRules: [String: NavigationRule]
    /// Rules that pass over a step when their condition holds, by step identifier.
    public var skipRules: [String: Condition]

    /// The ``identifier``, for `Identifiable`.
    public var id: String { identifier }

    /// Creates a task; throws when two steps share an identifier.
    public init(identifier: String, title: String? = nil, steps: [Step],
                navigationRules: [String: NavigationRule] = [:], skipRules: [String: Condition] = [:]) throws(TaskDefinitionError) {
        var seen = Set<String>()
        for (index, step) in steps.enumerated() where !seen.insert(step.identifier).inserted {
            throw TaskDefinitionError(path: "steps[\(index)].identifier", message: "duplicate step identifier '\(step.identifier)'")
        }
        self.identifier = identifier
        self.title = title
        self.steps = steps
        self.navigationRules = navigationRules
        self.skipRules = skipRules
        self.stepIndex = Dictionary(uniqueKeysWithValues: steps.enumerated().map { ($1.identifier, $0) })
    }

    /// Position of each step in ``steps``.
    private var stepIndex: [String: Int]

    /// Whether the task has any rules (a navigable task) or simply runs its steps in order.
    public var isNavigable: Bool { !navigationRules.isEmpty || !skipRules.isEmpty }

    /// The step identified `identifier`.
    public func step(withIdentifier identifier: String) -> Step? {
        stepIndex[identifier].map { steps[$0] }
    }

    /// The position of the step in ``steps``.
    public func index(ofStep identifier: String) -> Int? { stepIndex[identifier] }

    /// The step to show after `current` (nil: the first step), given the answers in `context`; nil ends the task
    /// (also when skip rules pass over steps in a cycle; ``TaskSession`` reports that case as an error).
    public func step(after current: String?, context: ConditionContext) -> Step? {
        if case .step(let step) = navigate(after: current, context: { context }) { return step }
        return nil
    }

    /// The step the Back button returns to from `current` in an ordered task: the step before it in the array.
    /// The session uses the path actually taken instead; this is for callers without one.
    public func step(before current: String) -> Step? {
        guard let index = stepIndex[current], index > 0 else { return nil }
        return steps[index - 1]
    }

    /// Where navigation leads after `current`.
    enum NavigationOutcome: Equatable {
        case step(Step)
        case end
        /// Skip rules passed over steps in a cycle; the identifier is the step where it was found.
        case cycle(String)
    }

    /// Follows navigation rules and skip rules from `current` (nil: the start) to the next step to show.
    ///
    /// Each step passed over by a skip rule is left as if it had been shown: its own navigation rule applies,
    /// as in ResearchKit. Passing over the same step twice is a cycle.
    /// The context is built only if a rule needs it, so an ordered task never pays for it.
    func navigate(after current: String?, context makeContext: () -> ConditionContext) -> NavigationOutcome {
        var built: ConditionContext?
        func context() -> ConditionContext {
            if let built { return built }
            let made = makeContext()
            built = made
            return made
        }
        var passedOver = Set<String>()
        var from = current
        while true {
            let candidate: Step?
            if let from {
                guard let index = stepIndex[from] else { return .end }
                switch destination(after: from, context: context) {
                case .end?: candidate = nil
                case .step(let target)?: candidate = stepIndex[target].map { steps[$0] }
                case nil: candidate = index + 1 < steps.count ? steps[index + 1] : nil
                }
            } else {
                candidate = steps.first
            }
            guard let candidate else { return .end }
            guard let skip = skipRules[candidate.identifier], skip.isSatisfied(by: context()) else { return .step(candidate) }
            guard passedOver.insert(candidate.identifier).inserted else { return .cycle(candidate.identifier) }
            from = candidate.identifier
        }
    }

    /// The destination a step's navigation rule picks; nil means "the next step in order".
    private func destination(after step: String, context: () -> ConditionContext) -> Destination? {
        switch navigationRules[step] {
        case .direct(let target)?: target
        case .conditional(let rules, let otherwise)?:
            rules.first { $0.condition.isSatisfied(by: context()) }?.destination ?? otherwise
        case nil: nil
        }
    }
}

/// Where navigation goes: a step, or the end of the task. JSON: the step's identifier, or `"$end"`.
public enum Destination: Hashable, Sendable, Codable {
    /// The step with this identifier.
    case step(String)
    /// The end of the task; it finishes as completed.
    case end

    /// The JSON spelling of ``end``.
    public static let endToken = "$end"

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = text == Destination.endToken ? .end : .step(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .end: try container.encode(Destination.endToken)
        case .step(let identifier): try container.encode(identifier)
        }
    }
}

/// What happens after a step in a navigable task.
public enum NavigationRule: Hashable, Sendable {
    /// Always go to the destination.
    case direct(Destination)
    /// Go to the destination of the first rule whose condition holds; otherwise to `otherwise`,
    /// or to the next step in order when that is nil.
    case conditional([ConditionalDestination], otherwise: Destination? = nil)

    /// Every destination the rule may lead to.
    public var destinations: [Destination] {
        switch self {
        case .direct(let destination): [destination]
        case .conditional(let rules, let otherwise): rules.map(\.destination) + (otherwise.map { [$0] } ?? [])
        }
    }
}

/// One branch of a conditional navigation rule.
public struct ConditionalDestination: Hashable, Sendable, Codable {
    /// When this branch applies; `if` in JSON.
    public var condition: Condition
    /// Where the branch leads; `goTo` in JSON.
    public var destination: Destination
    /// Creates a branch that leads to `destination` when `condition` holds.
    public init(if condition: Condition, goTo destination: Destination) {
        self.condition = condition
        self.destination = destination
    }
    private enum CodingKeys: String, CodingKey { case condition = "if", destination = "goTo" }
}

extension NavigationRule: Codable {
    private enum CodingKeys: String, CodingKey { case goTo, rules, otherwise }

    /// Reads `{"goTo": …}` as a direct rule, or `{"rules": […], "otherwise": …}` as a conditional one
    /// (`otherwise` may be left out).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.rules) {
            self = .conditional(try c.decode([ConditionalDestination].self, forKey: .rules),
                                otherwise: try c.decodeIfPresent(Destination.self, forKey: .otherwise))
        } else if c.contains(.goTo) {
            self = .direct(try c.decode(Destination.self, forKey: .goTo))
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a navigation rule needs either \"goTo\" (direct) or \"rules\" (conditional)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .direct(let destination): try c.encode(destination, forKey: .goTo)
        case .conditional(let rules, let otherwise):
            try c.encode(rules, forKey: .rules)
            try c.encodeIfPresent(otherwise, forKey: .otherwise)
        }
    }
}

/// A fault in a task definition, with the JSON path where it is.
public typealias TaskDefinitionError = DocumentProblem

extension ResearchTask: Codable {
    private enum CodingKeys: String, CodingKey { case identifier, title, steps, navigationRules, skipRules }

    /// Reads a task; `navigationRules` and `skipRules` default to none, and duplicate step identifiers are a
    /// data-corrupted error.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let steps = try c.decode([Step].self, forKey: .steps)
        do {
            try self.init(identifier: try c.decode(String.self, forKey: .identifier),
                          title: try c.decodeIfPresent(String.self, forKey: .title),
                          steps: steps,
                          navigationRules: try c.decodeIfPresent([String: NavigationRule].self, forKey: .navigationRules) ?? [:],
                          skipRules: try c.decodeIfPresent([String: Condition].self, forKey: .skipRules) ?? [:])
        } catch let error as TaskDefinitionError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encode(steps, forKey: .steps)
        if !navigationRules.isEmpty { try c.encode(navigationRules, forKey: .navigationRules) }
        if !skipRules.isEmpty { try c.encode(skipRules, forKey: .skipRules) }
    }
}
