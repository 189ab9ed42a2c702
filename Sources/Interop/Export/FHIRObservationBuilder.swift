import CareStore
import Foundation

/// Builds a FHIR R4 `Observation` from one value of a care-task outcome whose meaning the study has coded (for
/// example the pain check's answer as LOINC 72514-3).
///
/// ```swift
/// let observation = try FHIRObservationBuilder().observation(
///     id: "\(outcome.uuid.uuidString.lowercased())-0", code: pain, value: outcome.values[0], patientID: participant.id,
///     effective: outcome.createdDate!, timeZone: outcome.timeZone, category: FHIRTerminology.surveyCategory)
/// ```
///
/// `status` is `final` (an outcome is what the participant recorded), `code` the study's coding, `subject` the
/// Patient, `basedOn` the CarePlan when given, and `effectiveDateTime` when the outcome was recorded, with the offset
/// of the zone it was recorded in. The value goes to the `value[x]` of its type:
///
/// | Outcome value | Observation |
/// |---|---|
/// | integer without units | `valueInteger` (beyond FHIR's 32-bit range: `valueQuantity`) |
/// | integer with units, double | `valueQuantity` with `value` and the units as `unit` (free text: StudyKit's units are not UCUM codes, so no `system` or `code`) |
/// | boolean | `valueBoolean` |
/// | text | `valueString` |
/// | date | `valueDateTime`, with the outcome's offset |
/// | binary | none: throws ``FHIRExportError/unsupportedValue(_:)`` (R4 has no attachment value; R5 does) |
public struct FHIRObservationBuilder: Sendable {
    /// Creates a builder.
    public init() {}

    /// The Observation `id` of `value`, coded `code`, about `patientID`, recorded at `effective` in `timeZone`.
    public func observation(id: String, code: FHIRCoding, value: OutcomeValue, patientID: String, effective: Date, timeZone: TimeZone,
                            category: FHIRCoding? = nil, carePlanID: String? = nil) throws(FHIRExportError) -> FHIRResource {
        try FHIRResource.requireValidID(id, for: "Observation")
        try FHIRResource.requireValidID(patientID, for: "Patient")
        if let carePlanID { try FHIRResource.requireValidID(carePlanID, for: "CarePlan") }
        let (valueKey, valueJSON) = try Self.value(value, timeZone: timeZone)
        var members: [FHIRJSONMember] = FHIRJSON.fields([
            "resourceType": "Observation",
            "id": .string(id),
            "basedOn": carePlanID.map { [.fields(["reference": .string("CarePlan/\($0)")])] },
            "status": "final",
            "category": category.map { [$0.codeableConcept] },
            "code": .fields(["coding": [code.json], "text": code.display.map(FHIRJSON.string)]),
            "subject": .fields(["reference": .string("Patient/\(patientID)")]),
            "effectiveDateTime": .string(FHIRDateFormat.dateTime(effective, in: timeZone)),
        ]).members ?? []
        members.append(FHIRJSONMember(key: valueKey, value: valueJSON))
        return try FHIRResource(json: .object(members))
    }

    /// The `value[x]` name and JSON of an outcome value.
    static func value(_ value: OutcomeValue, timeZone: TimeZone) throws(FHIRExportError) -> (String, FHIRJSON) {
        func quantity(_ number: FHIRJSON) -> (String, FHIRJSON) {
            ("valueQuantity", .fields(["value": number, "unit": value.units.map(FHIRJSON.string)]))
        }
        switch value.value {
        case .integer(let number):
            if value.units != nil || !(Int(Int32.min)...Int(Int32.max)).contains(number) { return quantity(.integer(number)) }
            return ("valueInteger", .integer(number))
        case .double(let number):
            guard number.isFinite else { throw .unsupportedValue("\(number) is not a finite number") }
            return quantity(.decimal(number))
        case .boolean(let flag):
            return ("valueBoolean", .boolean(flag))
        case .text(let text):
            return ("valueString", .string(text))
        case .date(let date):
            return ("valueDateTime", .string(FHIRDateFormat.dateTime(date, in: timeZone)))
        case .binary(let data):
            throw .unsupportedValue("a binary value (\(data.count) bytes) of kind '\(value.kind ?? "none")': R4 Observations have no attachment value")
        }
    }
}
