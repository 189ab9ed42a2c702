import CareStore
import Consent
import Foundation
import StudyKitEnvironment
import Interop
import Research

/// Fixed keys, times, zones and records for the export builder tests.
enum ExportFixtures {
    static let key = try! ConsentSigningKey(rawRepresentation: Data((0..<32).map { UInt8($0) }))
    /// 2026-03-29T08:00:00.250Z, 17:00:00.250 in Tokyo.
    static let signedAt = Date(timeIntervalSince1970: 1_774_771_200.25)
    static let recordID = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!
    static let withdrawalID = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3302")!
    static let html = "<!DOCTYPE html><html lang=\"ja\"><head><meta charset=\"utf-8\"></head><body><h1>同意書</h1></body></html>"

    static func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

    /// `year-month-day hour:minute` on the wall clock of `zone`.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    static let drawing = Signature(width: 300, height: 100, strokes: [[SignaturePoint(x: 10, y: 50, t: 0), SignaturePoint(x: 60, y: 20, t: 16)]])

    static let participantSignature = ConsentRecordSignature(
        identifier: "participant", meaning: "consent to participate", givenName: "Hanako", familyName: "Yamada",
        drawing: drawing, signedAt: signedAt, utcOffsetSeconds: 32_400, timeZoneIdentifier: "Asia/Tokyo")

    static let investigatorSignature = ConsentRecordSignature(
        identifier: "investigator", meaning: "investigator countersignature", givenName: "Jamie", familyName: "Lee",
        drawing: nil, signedAt: signedAt.addingTimeInterval(-86_400), utcOffsetSeconds: 32_400, timeZoneIdentifier: "Asia/Tokyo")

    static func recorder(at date: Date) -> ConsentRecorder {
        ConsentRecorder(signingKey: key, environment: StudyKitEnvironment(now: { date }, makeUUID: { withdrawalID }))
    }

    static func consentRecord(sharing: String? = "investigatorsOnly",
                              signatures: [ConsentRecordSignature] = [investigatorSignature, participantSignature]) -> SealedConsentRecord {
        let record = ConsentRecord(id: recordID, kind: .consent, participantIdentifier: "p-0042", studyIdentifier: "recover",
                                   studyName: "Recover", documentIdentifier: "recover-consent", documentVersion: "1.2", language: "ja",
                                   html: html, signatures: signatures, answers: sharing.map { ["sharing": $0] } ?? [:],
                                   createdAt: signedAt.addingTimeInterval(1))
        return try! recorder(at: signedAt).seal(record)
    }

    static func withdrawal(of original: SealedConsentRecord, reason: String? = "moved abroad") -> SealedConsentRecord {
        try! recorder(at: signedAt.addingTimeInterval(30 * 86_400)).sealWithdrawal(of: original, reason: reason)
    }

    /// A stand-in PDF: its bytes are what matters to the attachment.
    static let pdf = Data("%PDF-1.7\nabc\n%%EOF\n".utf8)
}

extension FHIRJSON {
    /// The value at a path of keys and indices, such as `["repeat", "timeOfDay", 0]`.
    func at(_ path: any PathElement...) -> FHIRJSON? {
        var value: FHIRJSON? = self
        for element in path {
            if let key = element as? String { value = value?[key] } else if let index = element as? Int { value = value?[index] }
        }
        return value
    }

    /// Keys of an object value, in order.
    var keys: [String] { members?.map(\.key) ?? [] }
}

protocol PathElement {}
extension String: PathElement {}
extension Int: PathElement {}
