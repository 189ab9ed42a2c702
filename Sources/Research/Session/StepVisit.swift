import Foundation

/// One visit of one step during a run: what the participant entered there so far.
///
/// The session keeps the visits along the path taken; a visit left with Back is kept aside so that its
/// answers are shown again (pre-filled) when the participant returns.
public struct StepVisit: Hashable, Sendable, Codable {
    /// The step visited.
    public var stepIdentifier: String
    /// When the step was shown.
    public var startDate: Date
    /// When the participant left the step; nil while it is the current step.
    public var endDate: Date?
    /// Answers by question identifier (a question step's own identifier, or form item identifiers).
    public var answers: [String: Answer]
    /// The signature given on this visit; nil when none.
    public var signature: SignatureResult?
    /// Permission outcomes by permission identifier.
    public var permissions: [String: PermissionOutcome]
    /// The files recorded on this visit, one per file identifier (the latest recording).
    public var files: [FileResult]
    /// What an active step measured on this visit; nil until its module posted a result.
    public var active: ActiveStepResult?
    /// Why calculated items of the step have no value, by item identifier, as they stood when the participant
    /// left the step (their expression failed, or nothing here evaluates its language).
    public var calculationErrors: [String: String]
    /// Whether the participant left the step with Skip.
    public var skipped: Bool
    /// Set when the participant came here from a review step to change an answer: finishing this step
    /// returns to that review step.
    public var returnToReview: String?

    /// Starts a visit of the step `stepIdentifier` at `startDate`, with nothing entered yet.
    public init(stepIdentifier: String, startDate: Date) {
        self.stepIdentifier = stepIdentifier
        self.startDate = startDate
        self.endDate = nil
        self.answers = [:]
        self.signature = nil
        self.permissions = [:]
        self.files = []
        self.active = nil
        self.calculationErrors = [:]
        self.skipped = false
        self.returnToReview = nil
    }

    /// The visit as a step result, with one question result per question of `step` (nil answers included).
    func stepResult(for step: Step, endDate fallback: Date, isPrevious: Bool) -> StepResult {
        var items: [ResultItem] = step.questions.map { question in
            .question(QuestionResult(identifier: question.identifier, type: question.format.type,
                                     answer: skipped ? nil : answers[question.identifier], unit: question.format.unit,
                                     calculationError: skipped ? nil : calculationErrors[question.identifier]))
        }
        if let signature, !skipped { items.append(.signature(signature)) }
        if case .requestPermissions(let requests) = step.kind, !skipped {
            for request in requests {
                items.append(.permission(PermissionResult(identifier: request.identifier, permission: request.kind,
                                                          outcome: permissions[request.identifier] ?? .notDetermined)))
            }
        }
        if let active, !skipped { items.append(.active(active)) }
        items += files.map(ResultItem.file)
        return StepResult(identifier: stepIdentifier, startDate: startDate, endDate: endDate ?? fallback,
                          results: items, skipped: skipped, isPrevious: isPrevious)
    }
}

extension StepVisit {
    private enum CodingKeys: String, CodingKey {
        case stepIdentifier, startDate, endDate, answers, signature, permissions, files, active, calculationErrors, skipped, returnToReview
    }

    /// Reads a visit; empty answers, permissions, files and calculation errors, and `skipped` false, may be left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        stepIdentifier = try container.decode(String.self, forKey: .stepIdentifier)
        startDate = try container.decode(Date.self, forKey: .startDate)
        endDate = try container.decodeIfPresent(Date.self, forKey: .endDate)
        answers = try container.decodeIfPresent([String: Answer].self, forKey: .answers) ?? [:]
        signature = try container.decodeIfPresent(SignatureResult.self, forKey: .signature)
        permissions = try container.decodeIfPresent([String: PermissionOutcome].self, forKey: .permissions) ?? [:]
        files = try container.decodeIfPresent([FileResult].self, forKey: .files) ?? []
        active = try container.decodeIfPresent(ActiveStepResult.self, forKey: .active)
        calculationErrors = try container.decodeIfPresent([String: String].self, forKey: .calculationErrors) ?? [:]
        skipped = try container.decodeIfPresent(Bool.self, forKey: .skipped) ?? false
        returnToReview = try container.decodeIfPresent(String.self, forKey: .returnToReview)
    }

    /// Writes a visit without its empty parts: a run's restoration data is written at every answer, and most
    /// visits have no permissions, files or signature.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stepIdentifier, forKey: .stepIdentifier)
        try container.encode(startDate, forKey: .startDate)
        try container.encodeIfPresent(endDate, forKey: .endDate)
        if !answers.isEmpty { try container.encode(answers, forKey: .answers) }
        try container.encodeIfPresent(signature, forKey: .signature)
        if !permissions.isEmpty { try container.encode(permissions, forKey: .permissions) }
        if !files.isEmpty { try container.encode(files, forKey: .files) }
        try container.encodeIfPresent(active, forKey: .active)
        if !calculationErrors.isEmpty { try container.encode(calculationErrors, forKey: .calculationErrors) }
        if skipped { try container.encode(skipped, forKey: .skipped) }
        try container.encodeIfPresent(returnToReview, forKey: .returnToReview)
    }
}

/// Everything needed to continue a saved run later, possibly in another process: ``TaskSession/save()``
/// produces it, ``TaskSession/init(task:restoring:environment:otherTasks:files:)`` resumes from it.
public struct TaskRestorationData: Hashable, Sendable, Codable {
    /// Version of this format, for future migrations.
    public var formatVersion: Int
    /// The task the run belongs to; restoring into another task is refused.
    public var taskIdentifier: String
    /// The run's UUID, which the restored run keeps.
    public var taskRunUUID: UUID
    /// When the run first started.
    public var startDate: Date
    /// What the task is taken on, as in ``TaskResult/device``.
    public var device: String?
    /// The visits along the path taken, the current step last.
    public var path: [StepVisit]
    /// Visits left with Back, by step identifier, kept for pre-filling.
    public var setAside: [String: StepVisit]

    /// The names of the files the run refers to, in its output folder: those recorded on the visits of the path and
    /// on the visits set aside, and those file answers name.
    public var fileNames: Set<String> {
        var names: Set<String> = []
        for visit in path + Array(setAside.values) {
            names.formUnion(visit.files.map(\.fileName))
            for case .file(let file) in visit.answers.values { names.insert(file.fileName) }
        }
        return names
    }
}
