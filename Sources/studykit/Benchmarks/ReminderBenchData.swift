import CareStore
import Consent
import Foundation
import Study
import StudyKitEnvironment
import StudySQLite
import Synchronization

/// A clock the reminder benchmarks set by hand: participants are enrolled at one instant and their reminders decided
/// at another, as a server's clock would have moved between the two.
final class BenchClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func set(_ date: Date) { current.withLock { $0 = date } }

    /// The live environment's UUIDs and randomness, with this clock.
    var environment: StudyKitEnvironment {
        StudyKitEnvironment(now: { [self] in now }, makeUUID: { TimeOrderedUUIDGenerator.shared.next() })
    }
}

/// Participants written into a study's database the way the server writes them, for the reminder benchmarks: each
/// enrolled (``SQLiteStudyDatabase/enrol(invitationCode:timeZone:language:carePlan:)``, one transaction with their care
/// plan), onboarded (the onboarding gate's outcome, ``OnboardingGate/completionOutcome(participantID:timeZone:)``,
/// optionally with a sealed consent record, as finishing the onboarding commits them), with one confirmed email
/// address (``ReminderStore/addReminderChannel(_:)``) and the study's reminders turned on
/// (``ReminderStore/setReminderPreferences(_:participantID:)``).
struct ReminderBenchParticipants {
    let study: StudyDefinition
    let database: SQLiteStudyDatabase
    let clock: BenchClock

    /// Enrols and onboards `count` participants at `enrolledAt`, in `zones` by turns, each with the address
    /// `participant-N@example.org` confirmed and `reminders` on; every `pausedEvery`-th participant (the tenth, the
    /// twentieth, … for 10; none for 0) has paused all reminders.
    ///
    /// Without `consentKey`, the onboarding outcomes are added in batches of 5,000 (the care store's bulk write: the same
    /// outcomes ``OnboardingGate/recordCompletion(participantID:timeZone:)`` adds one at a time). With it, each
    /// participant's onboarding is committed as finishing it commits it: a consent record sealed with that key and the
    /// gate's outcome in one transaction; its PDF is then marked printed (a placeholder of a few bytes), so that a server
    /// started on the data does not print a thousand PDFs with Chromium while it is being measured.
    func enrol(count: Int, zones: [TimeZone], at enrolledAt: Date, reminders: Set<String>, pausedEvery: Int = 0,
               consentKey: ConsentSigningKey? = nil) async throws -> [StudyParticipant] {
        clock.set(enrolledAt)
        let environment = clock.environment
        let enrolment = StudyEnrolment(study: study, environment: environment)
        var participants: [StudyParticipant] = []
        participants.reserveCapacity(count)
        for index in 0..<count {
            let zone = zones[index % zones.count]
            participants.append(try await database.enrol(invitationCode: nil, timeZone: zone, language: "en") { participant in
                try enrolment.plan(participantID: participant.id, enrolledAt: participant.enrolledAt, timeZone: zone)
            })
        }

        let gate = OnboardingGate(careStore: database.careStore, environment: environment)
        if let consentKey {
            let recorder = ConsentRecorder(signingKey: consentKey, environment: environment)
            guard let document = study.consentDocuments[study.defaultLanguage] ?? study.consentDocuments.values.first else {
                throw ReminderBenchError("\(study.identifier) has no consent document to seal records of")
            }
            for participant in participants {
                let signature = ConsentRecordSignature(identifier: "participant", meaning: "consent to participate", givenName: "Alex",
                                                       familyName: "Morgan", drawing: nil, signedAt: enrolledAt, timeZone: participant.timeZone)
                let sealed = try recorder.sealConsent(participantIdentifier: participant.id, studyIdentifier: study.identifier,
                                                      studyName: study.name, documentIdentifier: document.identifier, documentVersion: document.version,
                                                      language: "en", html: "<!DOCTYPE html><p>I agree to take part in \(study.name).</p>",
                                                      signatures: [signature], answers: [:])
                var change = ParticipantChange(participantID: participant.id)
                change.consentRecords = [sealed]
                change.outcomes = [try await gate.completionOutcome(participantID: participant.id, timeZone: participant.timeZone)]
                _ = try await database.commit(change)
                try await database.studyStore.setConsentPDF(.stored(Data("%PDF-1.4 placeholder".utf8)), recordID: sealed.record.id,
                                                            participantID: participant.id)
            }
        } else {
            var batch: [Outcome] = []
            for participant in participants {
                batch.append(try await gate.completionOutcome(participantID: participant.id, timeZone: participant.timeZone))
                if batch.count == 5_000 {
                    _ = try await database.careStore.addOutcomes(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { _ = try await database.careStore.addOutcomes(batch) }
        }

        for (index, participant) in participants.enumerated() {
            _ = try await database.studyStore.addReminderChannel(ReminderChannel(
                id: environment.makeUUID(), participantID: participant.id, kind: .email, address: "participant-\(index + 1)@example.org",
                createdAt: enrolledAt, confirmedAt: enrolledAt))
            let paused = pausedEvery > 0 && index % pausedEvery == pausedEvery - 1
            try await database.studyStore.setReminderPreferences(ReminderPreferences(enabledReminderIDs: reminders, paused: paused),
                                                                 participantID: participant.id)
        }
        return participants
    }
}

/// Why a reminder benchmark could not run.
struct ReminderBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
