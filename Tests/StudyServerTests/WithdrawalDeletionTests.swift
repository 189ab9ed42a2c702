import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// A participant who leaves and whose data is deleted: their answers are gone from everything the study holds, not
/// only from what it shows.
@Suite("Withdrawal with deletion")
struct WithdrawalDeletionTests {
    typealias Fixture = ServerFixture

    /// Every file under `folder` whose bytes contain `marker`, by path relative to it.
    private func files(under folder: URL, containing marker: String) throws -> [String] {
        let needle = Data(marker.utf8)
        var found: [String] = []
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            if try Data(contentsOf: url).range(of: needle) != nil { found.append(String(url.path.dropFirst(folder.path.count))) }
        }
        return found
    }

    /// A free-text answer with a marker, given through the API and exported, is then found in no file of the data
    /// folder (the database, its write-ahead log, run files), no export of any format, no console page, no row of the
    /// audit trail and no API answer once the participant has left with their data deleted.
    @Test func aDeletedParticipantsAnswerIsNowhereInTheDataFolderExportsConsoleOrAPI() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock, withdrawal: .delete)
        let zoe = try await Fixture.participant(of: service, zone: TimeZone(identifier: "America/St_Johns")!)
        try await Fixture.consent(of: service, for: zoe, at: clock.now)
        clock.set(Fixture.date("2026-03-05T03:00:00Z"))
        let investigator = try await Fixture.researcher(of: service, role: .investigator)
        let marker = "zebra-marker-\(UUID().uuidString.prefix(8))"
        let folder = service.configuration.dataFolder
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            func call(_ method: HTTPRequest.Method, _ path: String, _ body: String? = nil) async throws -> (Int, String) {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(zoe.sessionToken)"
                if body != nil { headers[.contentType] = "application/json" }
                let response = try await client.execute(uri: "/api/v1" + path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
                return (Int(response.status.code), String(buffer: response.body))
            }
            let (started, run) = try await call(.post, "/participant/runs", #"{"task":"pain","occurrence":1}"#)
            #expect(started == 201)
            let id = try #require(try JSONSerialization.jsonObject(with: Data(run.utf8)) as? [String: Any])["id"] as? String
            let runID = try #require(id)
            for body in [#"{"step":"painLevel","action":"next","fields":{"q0":["3"]}}"#,
                         #"{"step":"painLocation","action":"next","fields":{"q0":["1"]}}"#,
                         #"{"step":"notes","action":"next","fields":{"q0":["it clicks \#(marker)"]}}"#,
                         #"{"step":"done","action":"next"}"#] {
                let (status, answer) = try await call(.post, "/participant/runs/\(runID)/steps", body)
                #expect(status == 200, "\(answer)")
            }
            // Before: the answer is stored, exported, and the console shows the participant.
            #expect(!(try files(under: folder, containing: marker)).isEmpty, "the answer is in the data folder before the deletion")
            let before = try await service.exportArchive(format: .json)
            #expect(!(try files(under: before.folder, containing: marker)).isEmpty, "and in the JSON export")
            before.remove()
            let shown = try await client.execute(uri: "/console/participants/\(zoe.participant.id)", method: .get,
                                                 headers: Fixture.consoleForm(investigator.cookie, form: false))
            #expect(String(buffer: shown.body).contains(marker), "and on the console's page of the participant")

            let left = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(zoe, form: true),
                                                body: ByteBuffer(string: Fixture.token(zoe) + "&reason="))
            #expect(left.status == .seeOther)

            #expect(try files(under: folder, containing: marker) == [], "no file of the data folder holds the answer")
            for format in StudyExportFormat.allCases {
                let archive = try await service.exportArchive(format: format)
                defer { archive.remove() }
                #expect(try files(under: archive.folder, containing: marker) == [], "the \(format.rawValue) export")
            }
            for page in ["/console", "/console/participants/\(zoe.participant.id)"] {
                let response = try await client.execute(uri: page, method: .get, headers: Fixture.consoleForm(investigator.cookie, form: false))
                #expect(response.status == .ok && !String(buffer: response.body).contains(marker), "\(page): \(response.status) \(String(buffer: response.body).prefix(300))")
            }
            for path in ["/participant", "/participant/events?from=2026-03-04&to=2026-03-06", "/participant/runs/\(runID)"] {
                let (_, answer) = try await call(.get, path)
                #expect(!answer.contains(marker), "\(path)")
            }
            let (gone, _) = try await call(.get, "/participant/runs/\(runID)")
            #expect(gone == 404)
        }
        let trail = try await service.data.auditEntries(participantID: zoe.participant.id, limit: 10_000)
        #expect(!trail.contains { ($0.before ?? "").contains(marker) || ($0.after ?? "").contains(marker) })
        #expect(trail.contains { $0.entity == "taskRun" && $0.action == "delete" }, "the trail still shows that the run was deleted")
        #expect(try await service.sqliteData.verifyAuditTrail() == nil)
    }
}
