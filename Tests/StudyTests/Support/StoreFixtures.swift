import Consent
import Foundation
import Research
import StudyKitEnvironment

/// A restoration data and a result of a one-question run with id `run`.
func pausedRun(_ run: UUID? = nil) throws -> (restoration: TaskRestorationData, result: TaskResult) {
    let task = try TaskValidator.load(Data(#"{"identifier": "pain", "steps": [{"type": "question", "identifier": "level", "answerFormat": {"type": "boolean"}}]}"#.utf8))
    let id = run ?? UUID()
    let environment = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_772_700_000) }, makeUUID: { id }, locale: Locale(identifier: "en_US"))
    var session = try TaskSession(task: task, environment: environment)
    try session.setAnswer(.boolean(true))
    let restoration = session.restorationData
    try session.goForward()
    return (restoration, session.result)
}

/// A consent record of `participant`, sealed with a fresh key.
func sealedConsent(participant: String, recorder: ConsentRecorder = ConsentRecorder(signingKey: .generate())) throws -> SealedConsentRecord {
    try recorder.sealConsent(participantIdentifier: participant, studyIdentifier: "recover", studyName: "Recover", documentIdentifier: "recover-consent",
                             documentVersion: "1.0", language: "en", html: "<p>Consent</p>", signatures: [], answers: ["sharing": "shareWidely"])
}
