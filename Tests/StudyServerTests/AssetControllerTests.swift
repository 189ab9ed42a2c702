import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
import StudyKitEnvironment
import StudySQLite
@testable import StudyServer
import Testing

/// The health check, the stylesheet and the script.
@Suite("Asset routes")
struct AssetControllerTests {
    @Test func assetsAreCachedForAYearAndEveryResponseHasTheSecurityHeaders() async throws {
        let service = try ServerFixture.service(clock: ServerFixture.Clock(ServerFixture.date("2026-03-04T01:00:00Z")))
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok && String(buffer: health.body) == "ok")
            for (uri, type) in [("/assets/studykit.css", "text/css; charset=utf-8"), ("/assets/studykit.js", "text/javascript; charset=utf-8")] {
                let asset = try await client.execute(uri: uri, method: .get)
                #expect(asset.status == .ok && asset.headers[.contentType] == type, "\(uri)")
                #expect(asset.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(uri)")
                #expect(asset.headers[.xContentTypeOptions] == "nosniff" && asset.headers[.contentSecurityPolicy] != nil, "\(uri)")
            }
            let missing = try await client.execute(uri: "/assets/other.js", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    /// `/health/database` answers `ok` while the database answers, and 503 with `Retry-After` (and not the database's
    /// own words) when it does not: what a proxy checks before it sends a process requests.
    @Test func theDatabaseHealthCheckSaysWhetherTheDatabaseAnswers() async throws {
        let clock = ServerFixture.Clock(ServerFixture.date("2026-03-04T01:00:00Z"))
        let service = try ServerFixture.service(clock: clock)
        try await Application(router: StudyRouter.router(service: service, secureCookies: false)).test(.router) { client in
            let answered = try await client.execute(uri: "/health/database", method: .get)
            #expect(answered.status == .ok && String(buffer: answered.body) == "ok" && answered.headers[.cacheControl] == "no-store")
        }
        let unavailable = try StudyService(study: service.study, configuration: service.configuration,
                                           data: UnavailableDatabase(wrapping: try service.sqliteData), environment: service.environment)
        try await Application(router: StudyRouter.router(service: unavailable, secureCookies: false)).test(.router) { client in
            let refused = try await client.execute(uri: "/health/database", method: .get)
            #expect(refused.status == .serviceUnavailable && refused.headers[.retryAfter] == "5")
            #expect(String(buffer: refused.body) == "the study's database does not answer")
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok, "the process itself still answers")
        }
    }
}

/// A database that no longer answers (a PostgreSQL server restarting): every call goes to `database` but the check of
/// whether it answers, which throws.
private struct UnavailableDatabase: StudyDatabase {
    struct Down: Error {}
    let database: SQLiteStudyDatabase
    init(wrapping database: SQLiteStudyDatabase) { self.database = database }

    var studyStore: any StudyStore { database.studyStore }
    var careStore: any CareStore { database.careStore }
    var researchers: any ResearcherStore { database.researchers }
    func commit(_ change: ParticipantChange) async throws -> CommittedParticipantChange { try await database.commit(change) }
    func enrol(invitationCode: String?, timeZone: TimeZone, language: String,
               carePlan: @escaping @Sendable (StudyParticipant) throws -> EnrolmentPlan) async throws -> StudyParticipant {
        try await database.enrol(invitationCode: invitationCode, timeZone: timeZone, language: language, carePlan: carePlan)
    }
    func observeCareCommits(_ observer: @escaping @Sendable (CareChange) -> Void) { database.observeCareCommits(observer) }
    func checkAvailability() async throws { throw Down() }
    func auditEntries(participantID: String, limit: Int) async throws -> [AuditEntry] {
        try await database.auditEntries(participantID: participantID, limit: limit)
    }
    func forEachAuditEntry(_ body: (AuditEntry) throws -> Bool) async throws { try await database.forEachAuditEntry(body) }
    func appendAudit(action: String, entity: String, entityID: String?, participantID: String?, after: String?) async throws {
        try await database.appendAudit(action: action, entity: entity, entityID: entityID, participantID: participantID, after: after)
    }
}
