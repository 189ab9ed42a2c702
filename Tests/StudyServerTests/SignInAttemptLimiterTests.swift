import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

@Suite("Sign-in attempt limit")
struct SignInAttemptLimiterTests {
    @Test func wrongCodesEmptyTheBucketWhichRefillsWithTime() async throws {
        let limiter = SignInAttemptLimiter(burst: 3, failuresPerSecond: 0.5, clientBurst: 100, clientFailuresPerSecond: 100)
        let start = Date(timeIntervalSince1970: 1_772_700_000)
        for _ in 0..<3 {
            #expect(try await limiter.allowsAttempt(from: "10.0.0.1", at: start))
            try await limiter.recordFailure(from: "10.0.0.1", at: start)
        }
        #expect(try await limiter.allowsAttempt(from: "10.0.0.1", at: start) == false)
        #expect(try await limiter.allowsAttempt(from: "10.0.0.1", at: start.addingTimeInterval(1.9)) == false)
        #expect(try await limiter.allowsAttempt(from: "10.0.0.1", at: start.addingTimeInterval(2)))
        try await limiter.recordFailure(from: "10.0.0.1", at: start.addingTimeInterval(2))
        #expect(try await limiter.allowsAttempt(from: "10.0.0.1", at: start.addingTimeInterval(2)) == false)
        // A clock that goes back adds nothing.
        #expect(try await limiter.allowsAttempt(from: "10.0.0.1", at: start) == false)
        #expect(try await limiter.allowsAttempt(from: "10.0.0.1", at: start.addingTimeInterval(600)))
    }
}
