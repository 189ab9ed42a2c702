import Foundation
import StudyKitEnvironment
import Research
@testable import Consent

/// Fixed keys, times, ids and records for the record and PDF tests.
enum RecordFixtures {
    /// A key from a fixed seed, so golden bytes and signatures are the same on every run.
    static let key = try! ConsentSigningKey(rawRepresentation: Data((0..<32).map { UInt8($0) }))
    /// A second, unrelated key.
    static let otherKey = try! ConsentSigningKey(rawRepresentation: Data((0..<32).map { UInt8(200 - $0) }))

    static let signedAt = Date(timeIntervalSince1970: 1_774_771_200.25)  // 2026-03-29T08:00:00.250Z
    static let recordID = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!

    /// A clock fixed at `date` and ids counting up from …0001.
    static func environment(at date: Date = signedAt.addingTimeInterval(5)) -> StudyKitEnvironment {
        let counter = Counter()
        return StudyKitEnvironment(now: { date }, makeUUID: {
            UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", counter.next()))!
        })
    }

    static let drawing = Signature(width: 300, height: 100, strokes: [
        [SignaturePoint(x: 10, y: 50, t: 0), SignaturePoint(x: 60.123456, y: 20.5, t: 16.4), SignaturePoint(x: 120, y: 80, t: 33)],
        [SignaturePoint(x: 150, y: 30, t: 400), SignaturePoint(x: 290, y: 70.25, t: 450)],
    ])

    static func participant(given: String = "花子", family: String = "山田") -> ConsentRecordSignature {
        ConsentRecordSignature(identifier: "participant", meaning: "consent to participate", givenName: given, familyName: family,
                               drawing: drawing, signedAt: signedAt, utcOffsetSeconds: 32_400, timeZoneIdentifier: "Asia/Tokyo")
    }

    static let investigator = ConsentRecordSignature(
        identifier: "investigator", meaning: "investigator countersignature", givenName: "Kenji", familyName: "Sato",
        drawing: nil, signedAt: signedAt.addingTimeInterval(60), utcOffsetSeconds: 32_400, timeZoneIdentifier: "Asia/Tokyo")

    static let html = "<!DOCTYPE html><html lang=\"ja\"><head><meta charset=\"utf-8\"><title>同意書</title></head><body><h1>同意書</h1><p>研究に参加します。</p></body></html>"

    static func record(html: String = html, signatures: [ConsentRecordSignature] = [participant(), investigator]) -> ConsentRecord {
        ConsentRecord(id: recordID, kind: .consent, participantIdentifier: "P-0042", studyIdentifier: "recover",
                      studyName: "Recover", documentIdentifier: "recover-consent", documentVersion: "1.2", language: "ja",
                      html: html, signatures: signatures, answers: ["sharing": "shareWidely", "contact": "yes"],
                      createdAt: signedAt.addingTimeInterval(61))
    }

    static func sealed(_ record: ConsentRecord = record(), with key: ConsentSigningKey = key) throws -> SealedConsentRecord {
        try ConsentRecorder(signingKey: key, environment: environment()).seal(record)
    }

    /// A fresh folder under the system's temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-consent-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
