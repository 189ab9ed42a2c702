import Foundation
import StudyKitEnvironment
import Testing
@testable import Study

@Suite("Secrets: codes, tokens and their hashes")
struct StudySecretsTests {
    @Test func codesAreBase32OfTheRandomBytesAndReadLeniently() {
        let zeros: @Sendable (Int) -> [UInt8] = { Array(repeating: 0, count: $0) }
        let ones: @Sendable (Int) -> [UInt8] = { Array(repeating: 0xFF, count: $0) }
        #expect(StudySecrets.invitationCode(zeros) == String(repeating: "0", count: 26))
        #expect(StudySecrets.signInCode(ones) == "ZZZZ-ZZZZ")
        #expect(StudySecrets.sessionToken(zeros).count == 43)
        #expect(!StudySecrets.sessionToken(ones).contains { "+/=".contains($0) })
        #expect(StudySecrets.normalizeCode("ab1o-il z") == "AB1011Z")
        #expect(StudySecrets.codeHash("abcd-efgh") == StudySecrets.codeHash("ABCDEFGH"))
        #expect(StudySecrets.codeHash("ABCDEFGH") == "9ac2197d9258257b1ae8463e4214e4cd0a578bc1517f2415928b91be4283fc48")
        #expect(StudySecrets.tokenHash("a") != StudySecrets.tokenHash("A"))
    }

    @Test func liveSecretsDiffer() {
        let live = StudyKitEnvironment.live
        #expect(StudySecrets.sessionToken(live.randomBytes) != StudySecrets.sessionToken(live.randomBytes))
    }
}
