import Foundation

/// Everything one run of a task produced: a step result for each visited step, in the order visited.
///
/// When navigation loops back to a step already answered, the earlier pass stays in ``stepResults``
/// with ``StepResult/isPrevious`` set, and the new pass follows it.
public struct TaskResult: Hashable, Sendable, Codable {
    /// The task's identifier.
    public var identifier: String
    /// Identifies this run; a restored run keeps its UUID.
    public var taskRunUUID: UUID
    /// When the run started.
    public var startDate: Date
    /// When the run ended; for a run still going on, when the result was taken.
    public var endDate: Date
    /// What the task was taken on (for example a browser's user agent, or "studykit run").
    public var device: String?
    /// The folder where files produced by the run were written, when there is one.
    public var outputDirectory: String?
    /// One result per visited step, in the order visited; earlier passes of a revisited step are marked
    /// ``StepResult/isPrevious``.
    public var stepResults: [StepResult]

    /// Creates a task result; see the properties for each part.
    public init(identifier: String, taskRunUUID: UUID, startDate: Date, endDate: Date, device: String? = nil,
                outputDirectory: String? = nil, stepResults: [StepResult]) {
        self.identifier = identifier
        self.taskRunUUID = taskRunUUID
        self.startDate = startDate
        self.endDate = endDate
        self.device = device
        self.outputDirectory = outputDirectory
        self.stepResults = stepResults
    }

    /// The latest (non-previous) result of the step `identifier`.
    public func stepResult(_ identifier: String) -> StepResult? {
        stepResults.last { $0.identifier == identifier && !$0.isPrevious }
    }

    /// The answer stored for `step` (or for `item` of a form step); nil when not answered.
    public func answer(step: String, item: String? = nil) -> Answer? {
        stepResult(step)?.questionResult(item ?? step)?.answer
    }
}

/// What one visit of one step produced.
public struct StepResult: Hashable, Sendable, Codable {
    /// The step's identifier.
    public var identifier: String
    /// When the step was shown.
    public var startDate: Date
    /// When the participant left the step; for the current step, when the result was taken.
    public var endDate: Date
    /// The answers, signatures, permissions and files of the step.
    public var results: [ResultItem]
    /// The participant pressed Skip: no answer is stored.
    public var skipped: Bool
    /// A later pass through the same step (a navigation loop) superseded this one.
    public var isPrevious: Bool

    /// Creates a step result; see the properties for each part.
    public init(identifier: String, startDate: Date, endDate: Date, results: [ResultItem] = [], skipped: Bool = false, isPrevious: Bool = false) {
        self.identifier = identifier
        self.startDate = startDate
        self.endDate = endDate
        self.results = results
        self.skipped = skipped
        self.isPrevious = isPrevious
    }

    /// The result of the question `identifier` in this step.
    public func questionResult(_ identifier: String) -> QuestionResult? {
        for item in results {
            if case .question(let result) = item, result.identifier == identifier { return result }
        }
        return nil
    }

    /// What the step measured, for an active step that recorded a result.
    public var activeResult: ActiveStepResult? {
        for item in results {
            if case .active(let result) = item { return result }
        }
        return nil
    }

    /// The question results in this step.
    public var questionResults: [QuestionResult] {
        results.compactMap { if case .question(let result) = $0 { result } else { nil } }
    }

    private enum CodingKeys: String, CodingKey { case identifier, startDate, endDate, results, skipped, isPrevious }

    /// Reads a step result; `results` defaults to empty, and `skipped` and `isPrevious` to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        startDate = try c.decode(Date.self, forKey: .startDate)
        endDate = try c.decode(Date.self, forKey: .endDate)
        results = try c.decodeIfPresent([ResultItem].self, forKey: .results) ?? []
        skipped = try c.decodeIfPresent(Bool.self, forKey: .skipped) ?? false
        isPrevious = try c.decodeIfPresent(Bool.self, forKey: .isPrevious) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(startDate, forKey: .startDate)
        try c.encode(endDate, forKey: .endDate)
        try c.encode(results, forKey: .results)
        if skipped { try c.encode(true, forKey: .skipped) }
        if isPrevious { try c.encode(true, forKey: .isPrevious) }
    }
}

/// One entry of a step result. JSON: an object whose `kind` is `question`, `signature`, `permission` or `file`.
public enum ResultItem: Hashable, Sendable, Codable {
    /// The answer to one question.
    case question(QuestionResult)
    /// A drawn signature.
    case signature(SignatureResult)
    /// The outcome of one permission request.
    case permission(PermissionResult)
    /// A file the run wrote.
    case file(FileResult)
    /// What an active step measured.
    case active(ActiveStepResult)

    private enum Kind: String, Codable { case question, signature, permission, file, active }
    private enum CodingKeys: String, CodingKey { case kind }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(Kind.self, forKey: .kind) {
        case .question: self = .question(try QuestionResult(from: decoder))
        case .signature: self = .signature(try SignatureResult(from: decoder))
        case .permission: self = .permission(try PermissionResult(from: decoder))
        case .file: self = .file(try FileResult(from: decoder))
        case .active: self = .active(try ActiveStepResult(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .question(let r): try c.encode(Kind.question, forKey: .kind); try r.encode(to: encoder)
        case .signature(let r): try c.encode(Kind.signature, forKey: .kind); try r.encode(to: encoder)
        case .permission(let r): try c.encode(Kind.permission, forKey: .kind); try r.encode(to: encoder)
        case .file(let r): try c.encode(Kind.file, forKey: .kind); try r.encode(to: encoder)
        case .active(let r): try c.encode(Kind.active, forKey: .kind); try r.encode(to: encoder)
        }
    }
}

/// The answer to one question, typed by the question's answer format.
///
/// JSON: `{"kind": "question", "identifier": "pain", "type": "scale", "answer": 7}`; a numeric answer
/// carries its `unit`; "I don't know" is `"dontKnow": true` with no `answer`; an unanswered question has neither.
public struct QuestionResult: Hashable, Sendable, Codable {
    /// The question's identifier (the step's for a question step, the item's for a form item).
    public var identifier: String
    /// The answer format the question used.
    public var type: AnswerFormatType
    /// The answer, or nil when the question was left empty.
    public var answer: Answer?
    /// The unit a numeric answer is in.
    public var unit: String?
    /// For a calculated item without a value: why it could not be calculated (its expression failed, or nothing
    /// evaluated its language). The participant was told so on the step and went on. Absent from JSON when nil.
    public var calculationError: String?

    /// Creates a question result; `unit` is normally the format's ``AnswerFormat/unit``.
    public init(identifier: String, type: AnswerFormatType, answer: Answer?, unit: String? = nil, calculationError: String? = nil) {
        self.identifier = identifier
        self.type = type
        self.answer = answer
        self.unit = unit
        self.calculationError = calculationError
    }

    private enum CodingKeys: String, CodingKey { case identifier, type, answer, dontKnow, unit, calculationError }

    /// Reads a question result; `"dontKnow": true` gives ``Answer/dontKnow``, a missing or null `answer` gives nil,
    /// and `answer` is read as the kind of value `type` produces.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        type = try c.decode(AnswerFormatType.self, forKey: .type)
        unit = try c.decodeIfPresent(String.self, forKey: .unit)
        calculationError = try c.decodeIfPresent(String.self, forKey: .calculationError)
        if try c.decodeIfPresent(Bool.self, forKey: .dontKnow) == true {
            answer = .dontKnow
        } else if c.contains(.answer), try !c.decodeNil(forKey: .answer) {
            answer = try Answer.decodeValue(type.answerKind, from: c.superDecoder(forKey: .answer))
        } else {
            answer = nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(type, forKey: .type)
        switch answer {
        case .dontKnow?: try c.encode(true, forKey: .dontKnow)
        case let answer?: try answer.encodeValue(to: c.superEncoder(forKey: .answer))
        case nil: break
        }
        try c.encodeIfPresent(unit, forKey: .unit)
        try c.encodeIfPresent(calculationError, forKey: .calculationError)
    }
}

/// A drawn signature: strokes of points with times, on a canvas of the given size.
public struct Signature: Hashable, Sendable, Codable {
    /// Width of the drawing area, in the points' units.
    public var width: Double
    /// Height of the drawing area.
    public var height: Double
    /// The strokes in the order drawn, each a list of points from pen down to pen up.
    public var strokes: [[SignaturePoint]]
    /// The signer's name typed instead of drawing, for participants who cannot draw (an accessibility
    /// alternative the study allows); nil for a drawn signature. Absent from JSON when nil.
    public var typedName: String?
    /// Creates a signature; see the properties for each part.
    public init(width: Double, height: Double, strokes: [[SignaturePoint]], typedName: String? = nil) {
        self.width = width
        self.height = height
        self.strokes = strokes
        self.typedName = typedName
    }
    /// Whether nothing was drawn and no name was typed.
    public var isEmpty: Bool {
        strokes.allSatisfy(\.isEmpty) && (typedName?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true)
    }
}

/// One point of a signature stroke: position, and milliseconds since the drawing began.
public struct SignaturePoint: Hashable, Sendable, Codable {
    /// Horizontal position, from 0 to the signature's ``Signature/width``.
    public var x: Double
    /// Vertical position, from 0 to the signature's ``Signature/height``.
    public var y: Double
    /// Milliseconds since the drawing began; not negative.
    public var t: Double
    /// Creates a point; see the properties for each part.
    public init(x: Double, y: Double, t: Double) {
        self.x = x
        self.y = y
        self.t = t
    }
}

/// The signature given on a signature step or after web content.
public struct SignatureResult: Hashable, Sendable, Codable {
    /// The identifier of the step the signature was given on.
    public var identifier: String
    /// The drawing.
    public var signature: Signature
    /// When the participant signed.
    public var signedDate: Date
    /// Creates a signature result; see the properties for each part.
    public init(identifier: String, signature: Signature, signedDate: Date) {
        self.identifier = identifier
        self.signature = signature
        self.signedDate = signedDate
    }
}

/// What became of one requested permission.
public struct PermissionResult: Hashable, Sendable, Codable {
    /// The request's identifier, as in ``PermissionRequest/identifier``.
    public var identifier: String
    /// What was asked for.
    public var permission: PermissionKind
    /// What became of the request; `notDetermined` when the participant left the step without an outcome for it. For
    /// an ``PermissionKind/email`` request it says only whether an address was given, never the address.
    public var outcome: PermissionOutcome
    /// Creates a permission result; see the properties for each part.
    public init(identifier: String, permission: PermissionKind, outcome: PermissionOutcome) {
        self.identifier = identifier
        self.permission = permission
        self.outcome = outcome
    }
}

/// The outcome of a permission request.
public enum PermissionOutcome: String, Hashable, Sendable, Codable, CaseIterable {
    /// `granted` or `denied` by the participant; `notDetermined` when never decided; `unavailable` when the
    /// device or browser cannot grant it.
    case granted, denied, notDetermined, unavailable
}

/// A file produced by a run (an audio recording, a drawing), stored in the run's output directory.
public struct FileResult: Hashable, Sendable, Codable {
    /// Names the file within its step, as given to ``TaskSession/recordFile(_:identifier:fileExtension:contentType:)``.
    public var identifier: String
    /// The file's path relative to the run's output directory.
    public var fileName: String
    /// Its media type, e.g. `audio/wav`.
    public var contentType: String
    /// The file's size in bytes.
    public var byteCount: Int
    /// Creates a file result; see the properties for each part.
    public init(identifier: String, fileName: String, contentType: String, byteCount: Int) {
        self.identifier = identifier
        self.fileName = fileName
        self.contentType = contentType
        self.byteCount = byteCount
    }
}

extension TaskResult {
    /// The names of the files the result refers to, in the run's output folder: files the run wrote and file answers.
    public var fileNames: Set<String> {
        var names: Set<String> = []
        for item in stepResults.lazy.flatMap(\.results) {
            switch item {
            case .file(let file): names.insert(file.fileName)
            case .question(let question): if case .file(let file)? = question.answer { names.insert(file.fileName) }
            case .signature, .permission, .active: break
            }
        }
        return names
    }
}
