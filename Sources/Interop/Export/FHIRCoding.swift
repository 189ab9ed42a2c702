/// A code from a code system, FHIR's `Coding`: the LOINC code of an observation, the scope of a consent.
///
/// ```swift
/// let pain = FHIRCoding(system: "http://loinc.org", code: "72514-3",
///                       display: "Pain severity - 0-10 verbal numeric rating [Score] - Reported")
/// pain.json      // {"system": "http://loinc.org", "code": "72514-3", "display": "Pain severity …"}
/// ```
public struct FHIRCoding: Hashable, Sendable {
    /// The code system's URI, such as `http://loinc.org`.
    public var system: String
    /// The code, such as `72514-3`.
    public var code: String
    /// The code's name in the code system, for people; nil to leave it out.
    public var display: String?

    /// Creates a coding.
    public init(system: String, code: String, display: String? = nil) {
        self.system = system
        self.code = code
        self.display = display
    }

    /// The coding as FHIR JSON: `system`, `code` and (when set) `display`.
    public var json: FHIRJSON {
        .fields(["system": .string(system), "code": .string(code), "display": display.map(FHIRJSON.string)])
    }

    /// A `CodeableConcept` holding just this coding.
    public var codeableConcept: FHIRJSON { .fields(["coding": [json]]) }
}
