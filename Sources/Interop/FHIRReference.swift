import Foundation

/// A FHIR Reference, as a QuestionnaireResponse's `subject` and `author` carry it: a literal reference such
/// as `Patient/123`, a text alternative, or both.
public struct FHIRReference: Hashable, Sendable {
    /// The literal reference: a relative (`Patient/123`) or absolute URL.
    public var reference: String?
    /// Text shown for the referenced resource.
    public var display: String?

    /// Creates a reference; give at least one of `reference` and `display` (an empty reference is not written).
    public init(reference: String? = nil, display: String? = nil) {
        self.reference = reference
        self.display = display
    }

    /// The reference as JSON; nil when it has neither part (FHIR elements may not be empty).
    var json: FHIRJSONValue? {
        var members: [String: FHIRJSONValue] = [:]
        if let reference, !reference.isEmpty { members["reference"] = .string(reference) }
        if let display, !display.isEmpty { members["display"] = .string(display) }
        return members.isEmpty ? nil : .object(members)
    }
}
