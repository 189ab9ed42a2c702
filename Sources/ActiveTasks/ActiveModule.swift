import Foundation
import JSONDiagnostics
import Research

/// What runs one kind of active step: its name, the browser module that measures, and the server's reading of what
/// that module posts.
///
/// A module never trusts the browser: ``result(of:content:posted:)`` checks every sample against the step's settings
/// (counts, ranges, order) and computes the measures itself, so the stored score follows from the stored samples.
public protocol ActiveModule: Sendable {
    /// The name active steps give in ``ActiveStepContent/module`` (`tapping`).
    var name: String { get }
    /// The names of the measures its results carry, in order (what a study's outcome mapping may name).
    var measureNames: [String] { get }
    /// Checks the samples the browser `posted` (a JSON object) for `step`, whose content is `content`, and computes
    /// the measures; throws naming the first sample that cannot be kept.
    func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult
    /// The most bytes the samples of a step with `content` may have (1 MB unless a module says otherwise).
    func maximumPostedBytes(for content: ActiveStepContent) -> Int
}

extension ActiveModule {
    /// The most bytes the samples of a step with `content` may have: 1 MB unless the module records more (a walk's
    /// sensors); the server lets a step's form be this much larger than its usual limit.
    public func maximumPostedBytes(for content: ActiveStepContent) -> Int { ActiveModules.usualSampleBytes }

    /// The result of `step` from its checked `samples` and the `measures` computed from them.
    func result(of step: Step, isComplete: Bool, samples: JSONTree, measures: [(identifier: String, value: Double?, units: String?)]) -> ActiveStepResult {
        ActiveStepResult(identifier: step.identifier, module: name, isComplete: isComplete, samples: samples,
                         measures: measures.map { ActiveMeasure(identifier: $0.identifier, value: $0.value, units: $0.units) })
    }
}

/// The active step modules a server knows, by name.
///
/// ```swift
/// let module = ActiveModules.standard["tapping"]
/// let result = try module?.result(of: step, content: content, posted: body)
/// ```
public struct ActiveModules: Sendable {
    private let modules: [String: any ActiveModule]

    /// A catalogue of `modules`; a later module replaces an earlier one of the same name.
    public init(_ modules: [any ActiveModule]) {
        self.modules = Dictionary(modules.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
    }

    /// The module named `name`; nil when the catalogue has none.
    public subscript(name: String) -> (any ActiveModule)? { modules[name] }

    /// The most bytes an active step's samples may have unless its module says otherwise (1 MB).
    public static let usualSampleBytes = PostedSamples.maximumBytes

    /// The names of every module, sorted.
    public var names: [String] { modules.keys.sorted() }

    /// Every module StudyKit provides.
    public static let standard = ActiveModules([CountdownModule(), TappingModule(), ReactionTimeModule(), StroopModule(), SpatialSpanModule(), TrailMakingModule(), TowerOfHanoiModule(), PSATModule(), AmslerGridModule(), HolePegModule(),
                                                  RangeOfMotionModule(), TremorModule(), ShakeReactionTimeModule(), WalkModule()])
}

/// The countdown before a measurement: the browser shows it for the step's duration and posts how long it actually
/// took, so a run's timeline shows when each measurement began.
public struct CountdownModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "countdown"
    public var name: String { Self.name }
    public var measureNames: [String] { [] }

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let document = try PostedSamples.document(posted)
        let members = try PostedSamples.members(document, "", known: ["elapsed", "complete"], required: ["elapsed", "complete"])
        let duration = content.duration ?? 0
        let elapsed = try PostedSamples.number(members["elapsed"], "elapsed", in: 0...(duration + 3_600))
        let complete = try PostedSamples.bool(members["complete"], "complete")
        return ActiveStepResult(identifier: step.identifier, module: name, isComplete: complete,
                                samples: .object([.init(key: "elapsed", value: .number(PostedSamples.text(elapsed)))]),
                                measures: [])
    }
}
