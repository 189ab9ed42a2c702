import Foundation
import StudyKitEnvironment
import Research
@testable import Consent

/// The Recover study's consent (the 2021 code-along: knee rehabilitation after surgery) and fixed environments.
enum ConsentFixtures {
    static let recoverJSON = #"""
    {
      "identifier": "recover-consent",
      "version": "1.2",
      "title": "Recover: knee rehabilitation study",
      "language": "en",
      "sections": [
        { "type": "overview", "summary": "Recover helps you strengthen your knee after surgery.",
          "content": "This study follows your recovery for twelve weeks.\n\nYou can stop at any time." },
        { "type": "dataGathering", "summary": "We collect your exercise results and your range of motion.",
          "markdownContent": "## What we collect\n\n- Knee range of motion\n- *Daily* pain ratings\n- Steps from your phone" },
        { "type": "privacy", "summary": "Your data is coded and kept on the study's server.",
          "htmlContent": "<p>Your name is stored <strong>apart</strong> from your answers.</p>",
          "learnMoreContent": "Only the study team can link codes to names." },
        { "type": "timeCommitment", "summary": "About ten minutes a day." },
        { "type": "custom", "title": "Risks", "formalTitle": "Risks and discomforts", "summary": "Exercises may cause soreness.",
          "content": "Stop any exercise that hurts and call the clinic." },
        { "type": "onlyInDocument", "title": "Contact", "content": "Call the Recover team at +1 555 0100." }
      ],
      "signatures": [
        { "identifier": "participant", "title": "Participant", "meaning": "consent to participate" },
        { "identifier": "investigator", "title": "Investigator", "meaning": "investigator countersignature",
          "givenName": "Jamie", "familyName": "Lee", "signedDate": "2026-03-28T09:00:00Z", "dateFormat": "yyyy-MM-dd",
          "signature": { "width": 300, "height": 100, "strokes": [[{"x": 10, "y": 50, "t": 0}, {"x": 60, "y": 40, "t": 30}]] } }
      ],
      "signaturePageContent": "By signing, I agree to take part in the Recover study."
    }
    """#

    static func recover() throws -> ConsentDocument {
        try ConsentDocumentValidator.load(Data(recoverJSON.utf8))
    }

    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    static let kiritimati = TimeZone(identifier: "Pacific/Kiritimati")!

    static func context(language: String? = nil, locale: String = "en_US", timeZone: TimeZone = tokyo,
                        strings: ConsentStrings = .builtIn) -> ConsentContext {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return ConsentContext(strings: strings, language: language, locale: Locale(identifier: locale), timeZone: timeZone, calendar: calendar)
    }

    /// A drawing with `strokes` strokes; the last one is a single point.
    static func drawing(strokes: Int = 3) -> Signature {
        var all: [[SignaturePoint]] = []
        for index in 0..<strokes - 1 {
            let x = Double(20 + index * 40)
            all.append([SignaturePoint(x: x, y: 60, t: Double(index * 100)), SignaturePoint(x: x + 25, y: 30, t: Double(index * 100 + 40)),
                        SignaturePoint(x: x + 30.25, y: 70.5, t: Double(index * 100 + 80))])
        }
        all.append([SignaturePoint(x: 250, y: 20, t: 900)])
        return Signature(width: 320, height: 120, strokes: all)
    }
}

/// A clock tests move by hand, and UUIDs counted from 1.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var counter = 0

    init(_ start: Date = Date(timeIntervalSince1970: 1_774_771_200)) { current = start } // 2026-03-29T08:00:00Z

    var now: Date { lock.withLock { current } }
    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

    func environment(timeZone: TimeZone = ConsentFixtures.tokyo) -> StudyKitEnvironment {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return StudyKitEnvironment(now: { self.now }, makeUUID: {
            self.lock.withLock {
                self.counter += 1
                return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", self.counter))!
            }
        }, calendar: calendar, locale: Locale(identifier: "en_US_POSIX"))
    }
}
