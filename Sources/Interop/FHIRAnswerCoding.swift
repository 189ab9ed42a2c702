import Foundation

/// A FHIR Coding, as read from a Questionnaire or written into a response.
struct FHIRAnswerCoding: Hashable, Sendable {
    /// The code system.
    var system: String?
    /// The code.
    var code: String?
    /// The text shown for the code.
    var display: String?

    /// Reads a Coding object; nil when it is not an object.
    init?(_ value: FHIRJSONValue?, defaultSystem: String? = nil) {
        guard let object = value?.object else { return nil }
        system = object["system"]?.string ?? defaultSystem
        code = object["code"]?.string
        display = object["display"]?.string
    }

    /// The Coding as a JSON object, leaving out the parts it does not have.
    var json: FHIRJSONValue {
        var members: [String: FHIRJSONValue] = [:]
        if let system { members["system"] = .string(system) }
        if let code { members["code"] = .string(code) }
        if let display { members["display"] = .string(display) }
        return .object(members)
    }
}
