import Foundation

/// One FHIR resource ready to be written: its type, its logical id and its JSON.
///
/// The export builders make these; a Bundle gathers them and the Bulk Data writer puts each in the NDJSON file of
/// its type. Resources made elsewhere (such as QuestionnaireResponses converted from task results) join an export
/// through ``init(json:)`` or ``init(jsonData:)``.
///
/// ```swift
/// let patient = try FHIRPatientBuilder().patient(participantID: "p-0042", language: "ja")
/// patient.reference            // "Patient/p-0042"
/// print(patient.json.serialized())
/// ```
public struct FHIRResource: Hashable, Sendable {
    /// The resource type, such as `Patient`; the JSON's `resourceType`.
    public let resourceType: String
    /// The logical id; the JSON's `id`.
    public let id: String
    /// The whole resource.
    public let json: FHIRJSON

    /// A resource from its JSON, which must be an object with a `resourceType` (letters, starting with a capital)
    /// and a valid FHIR `id`; throws ``FHIRExportError/invalidResource(_:)`` otherwise.
    public init(json: FHIRJSON) throws(FHIRExportError) {
        guard case .object = json else { throw .invalidResource("a resource is a JSON object") }
        guard let type = json["resourceType"]?.stringValue, let first = type.unicodeScalars.first,
              CharacterSet.uppercaseLetters.contains(first), type.unicodeScalars.allSatisfy(CharacterSet.letters.contains) else {
            throw .invalidResource("a resource needs a resourceType such as \"Patient\"")
        }
        guard let id = json["id"]?.stringValue else { throw .invalidResource("the \(type) has no id") }
        guard FHIRResource.isValidID(id) else { throw .invalidID(id, resourceType: type) }
        self.resourceType = type
        self.id = id
        self.json = json
    }

    /// A resource from JSON text, as another converter wrote it; throws ``FHIRExportError/invalidResource(_:)`` when
    /// the text is not JSON or not a resource with a type and an id.
    public init(jsonData data: Data) throws(FHIRExportError) {
        let json: FHIRJSON
        do {
            json = try FHIRJSON(data: data)
        } catch {
            throw .invalidResource("not JSON: \(error)")
        }
        try self.init(json: json)
    }

    /// The relative reference to this resource, `Type/id`, as resources outside a Bundle refer to it.
    public var reference: String { "\(resourceType)/\(id)" }

    /// Whether `id` is a FHIR id: 1 to 64 of `A–Z a–z 0–9 - .`.
    public static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    /// Checks that `id` can be the id of a `resourceType`, throwing ``FHIRExportError/invalidID(_:resourceType:)``.
    static func requireValidID(_ id: String, for resourceType: String) throws(FHIRExportError) {
        guard isValidID(id) else { throw .invalidID(id, resourceType: resourceType) }
    }
}
