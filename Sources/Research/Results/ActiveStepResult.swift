import Foundation
import JSONDiagnostics

/// What an active step measured: the raw samples as its module recorded them, and the summary measures computed from
/// them on the server.
///
/// JSON (in a step result): `{"kind": "active", "identifier": "tapping.right", "module": "tapping", "complete": true,
/// "samples": {…}, "measures": [{"identifier": "tapCount", "value": 84}]}`. `samples` is the module's own document
/// (for tapping, ResearchKit's field names: `samples` with `timestamp`, `duration`, `buttonIdentifier` and
/// `location`, `stepViewSize`, `buttonRect1`, `buttonRect2`), kept as validated; a measure that cannot be computed
/// from what was recorded (no taps, an abandoned test) has no value rather than a made-up one.
public struct ActiveStepResult: Hashable, Sendable, Codable {
    /// The identifier of the step the result belongs to.
    public var identifier: String
    /// The module that ran the step.
    public var module: String
    /// Whether the test ran to its end; false for one the participant stopped early, whose measures are left empty.
    public var isComplete: Bool
    /// The module's samples: one JSON object, as the module's result type writes it.
    public var samples: JSONTree
    /// The summary measures, in the module's order.
    public var measures: [ActiveMeasure]
    /// The files the step's recorders wrote (each sensor's readings), which the session keeps as the step's file
    /// results (``TaskSession/recordFile(_:identifier:fileExtension:contentType:)``); not part of the result's own JSON.
    public var files: [ActiveRecordedFile] = []

    /// Creates a result; see the properties for each part.
    public init(identifier: String, module: String, isComplete: Bool, samples: JSONTree, measures: [ActiveMeasure]) {
        self.identifier = identifier
        self.module = module
        self.isComplete = isComplete
        self.samples = samples
        self.measures = measures
    }

    /// The measure `identifier`; nil when the module has no such measure.
    public func measure(_ identifier: String) -> ActiveMeasure? {
        measures.first { $0.identifier == identifier }
    }

    private enum CodingKeys: String, CodingKey { case identifier, module, isComplete = "complete", samples, measures }
}

/// One summary measure of an active step, such as the mean interval between taps.
public struct ActiveMeasure: Hashable, Sendable, Codable {
    /// The measure's name within its module, such as `meanInterval`.
    public var identifier: String
    /// The value; nil when it cannot be computed from what was recorded.
    public var value: Double?
    /// The value's units (`ms`, `taps`, `%`); nil for a count without units.
    public var units: String?

    /// Creates a measure; see the properties.
    public init(identifier: String, value: Double?, units: String? = nil) {
        self.identifier = identifier
        self.value = value
        self.units = units
    }

    private enum CodingKeys: String, CodingKey { case identifier, value, units }

    /// Writes the measure; a measure without a value writes `"value": null`, so that its absence is explicit.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(value, forKey: .value)
        try c.encodeIfPresent(units, forKey: .units)
    }
}

/// A file an active step's recorder wrote: JSON in ResearchKit's layout (`{"items": [...]}`), named by the recorder
/// (`deviceMotion`).
public struct ActiveRecordedFile: Hashable, Sendable {
    /// The recorder's name, which names the file within the step.
    public var identifier: String
    /// The JSON.
    public var data: Data

    /// The file `identifier` holding `data`.
    public init(identifier: String, data: Data) {
        self.identifier = identifier
        self.data = data
    }
}
