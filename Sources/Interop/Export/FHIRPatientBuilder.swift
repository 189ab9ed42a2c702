import Foundation

/// Builds the `Patient` of a study participant: as little as the study knows, and nothing it does not.
///
/// ```swift
/// let patient = try FHIRPatientBuilder().patient(participantID: "p-0042", language: "ja",
///                                                 signedName: (given: "Hanako", family: "Yamada"))
/// ```
///
/// The resource has the participant's id as its id, the participant's language as their preferred language
/// (`communication`), and the name they typed when they signed the consent, when there is one. StudyKit records no
/// birth date, sex, address or contact details for participants, so a Patient carries none.
public struct FHIRPatientBuilder: Sendable {
    /// Creates a builder.
    public init() {}

    /// The Patient of participant `participantID`; `language` is a BCP 47 tag (`ja`, `zh-Hans`), `signedName` the
    /// given and family name from the participant's signature on their consent record (empty parts are left out).
    /// Throws ``FHIRExportError/invalidID(_:resourceType:)`` for an id FHIR does not allow.
    public func patient(participantID: String, language: String?, signedName: (given: String, family: String)? = nil) throws(FHIRExportError) -> FHIRResource {
        try FHIRResource.requireValidID(participantID, for: "Patient")
        var name: FHIRJSON?
        if let signedName {
            let given = signedName.given.trimmingCharacters(in: .whitespacesAndNewlines)
            let family = signedName.family.trimmingCharacters(in: .whitespacesAndNewlines)
            if !given.isEmpty || !family.isEmpty {
                name = .array([.fields(["family": family.isEmpty ? nil : .string(family),
                                        "given": given.isEmpty ? nil : [.string(given)]])])
            }
        }
        let communication: FHIRJSON? = language.map { tag in
            [.fields(["language": FHIRCoding(system: FHIRTerminology.languageSystem, code: tag).codeableConcept, "preferred": true])]
        }
        return try FHIRResource(json: .fields([
            "resourceType": "Patient",
            "id": .string(participantID),
            "name": name,
            "communication": communication,
        ]))
    }
}
