import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// `GET /events` on a live server, over raw connections that hold the streams open: how many one session and one
/// address may open, and that a stream ends when its browser goes, its session is signed out or its participant leaves.
///
/// The heartbeat is an hour in these tests, so nothing here can end by it: only what the test does ends a stream.
@Suite("Live-update streams")
struct LiveUpdatesControllerTests {
    typealias Fixture = ServerFixture
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    private func service(trustedProxies: Set<String> = [], withdrawal: StudyWithdrawalPolicy? = nil) throws -> StudyService {
        try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")), withdrawal: withdrawal, trustedProxies: trustedProxies,
                            heartbeat: .seconds(3600))
    }

    /// Serves `service` on a free port for `body`.
    private func live(_ service: StudyService, _ body: @Sendable @escaping (any TestClientProtocol, Int) async throws -> Void) async throws {
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.live) { client in try await body(client, try #require(client.port)) }
    }

    /// Whether `condition` comes to hold, checked every few milliseconds for at most half a minute (a bound on a
    /// test that would otherwise hang, never a measure).
    private func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<600 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return await condition()
    }

    /// The server's ends of the TCP connections to `port` that still hold a descriptor (established, or closed by the
    /// peer and not yet by the server), as the kernel lists them (`/proc/net/tcp` and `tcp6`). Counted by port, not as
    /// this process's descriptors: the other suites run in the same process at the same time and open their own; and
    /// the server's ends only, as the test's clients live in this process too.
    private func connections(port: Int) -> Int {
        let hexPort = String(format: "%04X", port)
        return ["/proc/net/tcp", "/proc/net/tcp6"].reduce(0) { count, file in
            count + kernelTable(file).split(separator: "\n").dropFirst().filter { line in
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[1].split(separator: ":").last.map(String.init) == hexPort else { return false }
                return fields[3] == "01" || fields[3] == "08"
            }.count
        }
    }

    /// The whole of a `/proc` table, read to its end. Its size on disk is 0 and the kernel hands it out a page at a time,
    /// so a read sized by the file's length, as `String(contentsOfFile:)` makes, can stop after the first page while
    /// thousands of closed connections wait out their time ahead of the open ones.
    private func kernelTable(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    @Test func twoThousandStreamRequestsFromOneSessionOpenFourAndTheRestAreRefusedSoStreamsAndDescriptorsStayBounded() async throws {
        let service = try service()
        let alex = try await Fixture.participant(of: service, zone: tokyo)
        try await live(service) { _, port in
            var open: [EventStreamConnection] = []
            var statuses: [Int: Int] = [:]
            var refusal = ""
            for _ in 0..<40 {
                let batch = try await withThrowingTaskGroup(of: (EventStreamConnection, Int?).self) { group in
                    for _ in 0..<50 {
                        group.addTask {
                            let connection = try await EventStreamConnection.open(port: port, sessionToken: alex.sessionToken)
                            return (connection, await connection.status())
                        }
                    }
                    var batch: [(EventStreamConnection, Int?)] = []
                    for try await result in group { batch.append(result) }
                    return batch
                }
                for (connection, status) in batch {
                    statuses[status ?? 0, default: 0] += 1
                    if status == 200 {
                        open.append(connection)
                    } else {
                        if refusal.isEmpty { refusal = connection.text }
                        await connection.close()
                    }
                }
            }
            #expect(statuses == [200: 4, 429: 1996])
            #expect(refusal.lowercased().contains("retry-after: 30"), "a refusal says when to try again")
            for connection in open { #expect(await connection.opened()) }
            #expect(service.liveStreams.openCount == 4 && service.changeFeed.subscriberCount == 4)
            // The refused connections' sockets are all closed again: what stays open is the four streams', and at most the
            // test client's own keep-alive connection.
            #expect(connections(port: port) >= 4, "the four open streams are counted: \(connections(port: port))")
            #expect(await eventually { connections(port: port) <= 4 + 1 }, "connections to the server: \(connections(port: port))")
            for connection in open { await connection.close() }
        }
    }

    @Test func streamsPastThirtyTwoFromOneClientAddressAreRefusedWhileAnotherAddressStillOpensOne() async throws {
        let service = try service(trustedProxies: ["127.0.0.1"])
        var participants: [StudyService.SignedIn] = []
        for _ in 0..<9 { participants.append(try await Fixture.participant(of: service, zone: tokyo)) }
        let sessions = participants
        try await live(service) { _, port in
            var open: [EventStreamConnection] = []
            var statuses: [Int] = []
            for participant in sessions {
                for _ in 0..<4 {
                    let connection = try await EventStreamConnection.open(port: port, sessionToken: participant.sessionToken, forwardedFor: "203.0.113.5")
                    let status = await connection.status()
                    statuses.append(status ?? 0)
                    if status == 200 { open.append(connection) } else { await connection.close() }
                }
            }
            #expect(statuses.filter { $0 == 200 }.count == 32 && statuses.suffix(4) == [429, 429, 429, 429])
            let elsewhere = try await EventStreamConnection.open(port: port, sessionToken: sessions[8].sessionToken, forwardedFor: "198.51.100.1")
            #expect(await elsewhere.status() == 200, "another address has its own 32")
            await elsewhere.close()
            for connection in open { await connection.close() }
        }
    }

    @Test func aStreamWhoseBrowserClosesTheConnectionGivesItsPlaceBackWithoutWaitingForAHeartbeat() async throws {
        let service = try service()
        let alex = try await Fixture.participant(of: service, zone: tokyo)
        try await live(service) { _, port in
            var open: [EventStreamConnection] = []
            for _ in 0..<4 {
                let connection = try await EventStreamConnection.open(port: port, sessionToken: alex.sessionToken)
                #expect(await connection.opened())
                open.append(connection)
            }
            let fifth = try await EventStreamConnection.open(port: port, sessionToken: alex.sessionToken)
            #expect(await fifth.status() == 429)
            await fifth.close()

            await open.removeFirst().close()
            #expect(await eventually { service.liveStreams.openCount(session: alex.sessionID) == 3 && service.changeFeed.subscriberCount == 3 },
                    "the closed stream is released though no heartbeat comes for an hour")
            let again = try await EventStreamConnection.open(port: port, sessionToken: alex.sessionToken)
            #expect(await again.status() == 200)
            await again.close()
            for connection in open { await connection.close() }
        }
    }

    @Test func anOpenStreamEndsWhenItsSessionIsSignedOutFromAnotherBrowserAndCannotReconnect() async throws {
        let service = try service()
        let alex = try await Fixture.participant(of: service, zone: tokyo)
        let phoneToken = try await service.store.createSession(participantID: alex.participant.id, lifetime: 3600).token
        let phone = try #require(try await service.signedIn(sessionToken: phoneToken))
        try await live(service) { client, port in
            let stream = try await EventStreamConnection.open(port: port, sessionToken: phoneToken)
            let laptopStream = try await EventStreamConnection.open(port: port, sessionToken: alex.sessionToken)
            #expect(await stream.opened())
            #expect(await laptopStream.opened())

            let signOut = try await client.execute(uri: "/settings/browsers/\(phone.sessionID.uuidString)/sign-out", method: .post,
                                                   headers: Fixture.headers(alex, form: true), body: ByteBuffer(string: Fixture.token(alex)))
            #expect(signOut.status == .seeOther)
            #expect(await stream.ended(), "the signed-out browser's stream ends")
            #expect(!laptopStream.text.hasSuffix("\r\n0\r\n\r\n") && service.liveStreams.openCount(session: alex.sessionID) == 1,
                    "the browser that signed it out keeps its own")
            let reconnect = try await EventStreamConnection.open(port: port, sessionToken: phoneToken)
            #expect(await reconnect.status() == 401)
            await reconnect.close()
            await laptopStream.close()
        }
    }

    @Test func everyOpenStreamOfAParticipantEndsWhenTheyLeaveTheStudyAndANewOneIsRefused() async throws {
        let service = try service(withdrawal: .keep)
        let alex = try await Fixture.participant(of: service, zone: tokyo)
        try await Fixture.consent(of: service, for: alex, at: service.environment.now())
        let phoneToken = try await service.store.createSession(participantID: alex.participant.id, lifetime: 3600).token
        try await live(service) { client, port in
            let laptop = try await EventStreamConnection.open(port: port, sessionToken: alex.sessionToken)
            let phone = try await EventStreamConnection.open(port: port, sessionToken: phoneToken)
            #expect(await laptop.opened())
            #expect(await phone.opened())

            let leave = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(alex, form: true),
                                                 body: ByteBuffer(string: "reason=moving&" + Fixture.token(alex)))
            #expect(leave.status == .seeOther)
            #expect(await laptop.ended(), "the stream of the browser that left ends")
            #expect(await phone.ended(), "and the participant's other browser's")
            let reconnect = try await EventStreamConnection.open(port: port, sessionToken: phoneToken)
            #expect(await reconnect.status() == 403, "a participant who left gets no stream")
            await reconnect.close()
        }
    }

    @Test func aWithdrawalRecordedInTheConsoleEndsTheParticipantsOpenStream() async throws {
        let service = try service(withdrawal: .keep)
        let alex = try await Fixture.participant(of: service, zone: tokyo)
        try await Fixture.consent(of: service, for: alex, at: service.environment.now())
        let investigator = try await Fixture.researcher(of: service, role: .investigator)
        try await live(service) { client, port in
            let stream = try await EventStreamConnection.open(port: port, sessionToken: alex.sessionToken)
            #expect(await stream.opened())
            let withdrawal = try await client.execute(uri: "/console/participants/\(alex.participant.id)/withdraw", method: .post,
                                                      headers: Fixture.consoleForm(investigator.cookie),
                                                      body: ByteBuffer(string: investigator.csrf + "&reason=Asked+by+phone"))
            #expect(withdrawal.status == .seeOther)
            #expect(await stream.ended(), "the participant's stream ends when the team records their withdrawal")
            let reconnect = try await EventStreamConnection.open(port: port, sessionToken: alex.sessionToken)
            #expect(await reconnect.status() == 403, "a participant who left gets no stream")
            await reconnect.close()
        }
    }
}
