import Foundation
import Research
import Testing
@testable import Consent

@Suite struct RecordSealTests {
    let verifier = ConsentRecordVerifier(expectedPublicKey: RecordFixtures.key.publicKey)

    @Test func aFreshRecordVerifies() throws {
        let recorder = ConsentRecorder(signingKey: RecordFixtures.key, environment: RecordFixtures.environment())
        let sealed = try recorder.sealConsent(
            participantIdentifier: "P-0042", studyIdentifier: "recover", studyName: "Recover", documentIdentifier: "recover-consent",
            documentVersion: "1.2", language: "ja", html: RecordFixtures.html,
            signatures: [RecordFixtures.participant(), RecordFixtures.investigator], answers: ["sharing": "shareWidely"])
        #expect(verifier.mismatches(in: sealed) == [])
        #expect(ConsentRecordVerifier().mismatches(in: sealed) == [])
        #expect(sealed.record.id == UUID(uuidString: "00000000-0000-4000-8000-000000000001"))
        #expect(sealed.record.createdAt == RecordFixtures.signedAt.addingTimeInterval(5))
        #expect(sealed.record.htmlSHA256 == ConsentRecord.sha256Hex(of: Data(RecordFixtures.html.utf8)))
        #expect(sealed.publicKey == RecordFixtures.key.publicKey.base64)
        #expect(Data(base64Encoded: sealed.signature)?.count == 64)
        #expect(sealed.record.signatures[0].localSigningTime == "2026-03-29T17:00:00.250+09:00")
    }

    /// Each change to a sealed record, made after sealing, that verification must catch.
    static let tamperings: [(String, @Sendable (inout ConsentRecord) -> Void)] = [
        ("one byte of the HTML", { $0.html = $0.html.replacingOccurrences(of: "参加します", with: "参加しません") }),
        ("the HTML and its recorded hash together", {
            $0.html += " "
            $0.htmlSHA256 = $0.computedHTMLSHA256
        }),
        ("the given name", { $0.signatures[0].givenName = "花江" }),
        ("the family name", { $0.signatures[0].familyName = "山口" }),
        ("the signing time", { $0.signatures[0].signedAt.addTimeInterval(0.001) }),
        ("the signer's offset", { $0.signatures[0].utcOffsetSeconds = 0 }),
        ("a stroke point", { $0.signatures[0].drawing!.strokes[1][0].x += 0.01 }),
        ("a stroke's time", { $0.signatures[0].drawing!.strokes[0][2].t = 34 }),
        ("a removed stroke", { $0.signatures[0].drawing!.strokes.removeLast() }),
        ("the meaning", { $0.signatures[1].meaning = "witness" }),
        ("the sharing answer", { $0.answers["sharing"] = "onlyInvestigators" }),
        ("a removed signature", { $0.signatures.removeLast() }),
        ("the document version", { $0.documentVersion = "1.3" }),
        ("the participant", { $0.participantIdentifier = "P-0043" }),
        ("the creation time", { $0.createdAt.addTimeInterval(-1) }),
    ]

    @Test(arguments: 0..<tamperings.count) func everySingleTamperingIsCaught(index: Int) throws {
        let (what, tamper) = Self.tamperings[index]
        var sealed = try RecordFixtures.sealed()
        tamper(&sealed.record)
        let problems = verifier.mismatches(in: sealed)
        #expect(problems.contains(.signature), "\(what): \(problems)")
    }

    @Test func aChangedHTMLByteIsNamedAsAHashMismatch() throws {
        var sealed = try RecordFixtures.sealed()
        var bytes = Array(sealed.record.html.utf8)
        bytes[bytes.count - 10] ^= 0x01
        sealed.record.html = String(decoding: bytes, as: UTF8.self)
        let problems = verifier.mismatches(in: sealed)
        #expect(problems.map(\.name) == ["html-hash", "signature"])
    }

    @Test func tamperingInTheStoredJSONIsCaught() throws {
        let sealed = try RecordFixtures.sealed()
        let text = String(decoding: try sealed.jsonData(), as: UTF8.self)
        #expect(text.contains("\"sharing\":\"shareWidely\""))
        let changed = try SealedConsentRecord(jsonData: Data(text.replacingOccurrences(of: "shareWidely", with: "onlyInvestigators").utf8))
        #expect(verifier.mismatches(in: changed) == [.signature])
    }

    @Test func aRecordSignedByAnotherKeyIsRejected() throws {
        let foreign = try RecordFixtures.sealed(with: RecordFixtures.otherKey)
        let problems = verifier.mismatches(in: foreign)
        let other = RecordFixtures.otherKey.publicKey.fingerprint, ours = RecordFixtures.key.publicKey.fingerprint
        #expect(problems == [.signedByOtherKey(actual: other, expected: ours)])
        #expect(problems[0].description == "signed by key \(other), expected \(ours)")
        // Claiming our key for the foreign signature does not help.
        var claimed = foreign
        claimed.publicKey = RecordFixtures.key.publicKey.base64
        #expect(verifier.mismatches(in: claimed) == [.signature])
    }

    @Test func malformedSealsAreNamed() throws {
        var sealed = try RecordFixtures.sealed()
        sealed.signature = "not base64!"
        #expect(verifier.mismatches(in: sealed) == [.malformedSignature])
        sealed = try RecordFixtures.sealed()
        sealed.publicKey = "AAAA"
        #expect(verifier.mismatches(in: sealed) == [.malformedPublicKey("AAAA")])
        sealed = try RecordFixtures.sealed()
        sealed.algorithm = "RSA"
        #expect(verifier.mismatches(in: sealed) == [.unsupportedAlgorithm("RSA")])
    }

    @Test func aWithdrawalPointsToItsOriginal() throws {
        let original = try RecordFixtures.sealed()
        let withdrawnAt = RecordFixtures.signedAt.addingTimeInterval(86_400)
        let recorder = ConsentRecorder(signingKey: RecordFixtures.key, environment: RecordFixtures.environment(at: withdrawnAt))
        let withdrawal = try recorder.sealWithdrawal(of: original, reason: "moved abroad")
        let link = try #require(withdrawal.record.withdrawal)
        #expect(withdrawal.record.kind == .withdrawal)
        #expect(withdrawal.record.id != original.record.id)
        #expect(link.originalRecordID == original.record.id)
        #expect(link.originalSealSHA256 == (try original.sealSHA256()))
        #expect(link.withdrawnAt == withdrawnAt)
        #expect(link.reason == "moved abroad")
        #expect(withdrawal.record.participantIdentifier == original.record.participantIdentifier)
        #expect(verifier.mismatches(in: withdrawal) == [])
        #expect(verifier.mismatches(in: withdrawal, original: original) == [])
        // Append-only: the original is unchanged and still verifies on its own.
        #expect(verifier.mismatches(in: original) == [])
    }

    @Test func aWithdrawalWhoseLinkWasChangedIsCaught() throws {
        let original = try RecordFixtures.sealed()
        let recorder = ConsentRecorder(signingKey: RecordFixtures.key, environment: RecordFixtures.environment())
        let withdrawal = try recorder.sealWithdrawal(of: original, reason: nil)

        // Changed after sealing: the signature no longer matches.
        var moved = withdrawal
        moved.record.withdrawal!.originalRecordID = UUID(uuidString: "00000000-0000-4000-8000-0000000000FF")!
        #expect(verifier.mismatches(in: moved, original: original).map(\.name) == ["signature", "withdrawal-record-id"])

        // Re-sealed by the key holder to point at another consent: caught against the real original.
        var otherConsent = RecordFixtures.record()
        otherConsent.id = UUID(uuidString: "00000000-0000-4000-8000-0000000000EE")!
        let other = try RecordFixtures.sealed(otherConsent)
        let repointed = try recorder.sealWithdrawal(of: other, reason: nil)
        #expect(verifier.mismatches(in: repointed, original: original).map(\.name) == ["withdrawal-record-id", "withdrawal-seal-hash"])

        // The original changed after the withdrawal was made: its seal and the bound hash both disagree.
        var changedOriginal = original
        changedOriginal.record.answers["sharing"] = "onlyInvestigators"
        #expect(verifier.mismatches(in: withdrawal, original: changedOriginal).map(\.name) == ["original.signature", "withdrawal-seal-hash"])

        // A withdrawal whose link was removed, and a consent that carries one.
        var unlinked = withdrawal.record
        unlinked.withdrawal = nil
        #expect(verifier.mismatches(in: try RecordFixtures.sealed(unlinked)).map(\.name) == ["withdrawal-link"])
    }

    @Test func onlyAValidConsentCanBeWithdrawn() throws {
        let recorder = ConsentRecorder(signingKey: RecordFixtures.key, environment: RecordFixtures.environment())
        let original = try RecordFixtures.sealed()
        let withdrawal = try recorder.sealWithdrawal(of: original, reason: nil)
        #expect(throws: ConsentRecordError.notAConsentRecord(recordID: withdrawal.record.id.uuidString, kind: .withdrawal)) {
            _ = try recorder.sealWithdrawal(of: withdrawal, reason: nil)
        }
        var tampered = original
        tampered.record.signatures[0].givenName = "X"
        #expect(throws: ConsentRecordError.self) { _ = try recorder.sealWithdrawal(of: tampered, reason: nil) }
    }
}
