import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Study
import StudyKitEnvironment
import StudySQLite
@testable import StudyServer
import Testing

/// The edges of the server an attacker probes first: bodies it cannot read, posts from a sibling subdomain, floods of
/// wrong sign-in codes, forwarded addresses, and a data folder other accounts could read.
@Suite("Server edges")
struct ServerEdgeTests {
    typealias Fixture = ServerFixture
    static let start = Fixture.date("2026-03-04T01:00:00Z")

    private func post(_ client: some TestClientProtocol, _ uri: String, contentType: String?, body: String,
                      headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        if let contentType { headers[.contentType] = contentType }
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test func aFormSentWithAnotherContentTypeIsA400SayingSo() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Self.start))
        try await Application(router: StudyRouter.router(service: service, secureCookies: false)).test(.router) { client in
            for type in ["application/json", "text/plain", "multipart/form-data"] {
                let response = try await post(client, "/signin", contentType: type, body: "code=ABCD-EFGH")
                #expect(response.status == .badRequest, "\(type)")
                #expect(String(buffer: response.body).contains("application/x-www-form-urlencoded"), "\(type)")
            }
            let untyped = try await post(client, "/signin", contentType: nil, body: "code=ABCD-EFGH")
            #expect(untyped.status == .badRequest)
            #expect(String(buffer: untyped.body).contains("without a Content-Type"))
            // The form's own type, with or without a charset, is read.
            for type in ["application/x-www-form-urlencoded", "Application/X-WWW-Form-Urlencoded; charset=UTF-8"] {
                #expect(try await post(client, "/signin", contentType: type, body: "code=ABCD-EFGH").status == .unprocessableContent)
            }
        }
    }

    @Test func aMultipartBodyCutOffBeforeItsClosingBoundaryIsRefused() throws {
        let boundary = "----studykit"
        let whole = "--\(boundary)\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\ntoken\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\nanswer\r\n--\(boundary)--\r\n"
        #expect(try FormBody.multipart(ByteBuffer(string: whole), boundary: boundary).0 == ["_csrf": ["token"], "q": ["answer"]])
        // Cut in the last part: the parser alone handed over the first part and dropped the second without a word.
        let cut = String(whole.prefix(whole.count - "answer\r\n--\(boundary)--\r\n".count + 3))
        #expect(throws: StudyServerError.malformed("The form ends before its closing boundary: it was cut off on the way.")) {
            _ = try FormBody.multipart(ByteBuffer(string: cut), boundary: boundary)
        }
        let noClose = String(whole.dropLast("--\(boundary)--\r\n".count))
        #expect(throws: StudyServerError.self) { _ = try FormBody.multipart(ByteBuffer(string: noClose), boundary: boundary) }
    }

    @Test func aSiblingSubdomainCannotPostTheJoinOrSignInForm() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Self.start))
        let invitation = try await service.store.createInvitation(label: nil, expiresAt: nil)
        try await Application(router: StudyRouter.router(service: service, secureCookies: false)).test(.router) { client in
            let sameSite = HTTPField.Name("Sec-Fetch-Site")!, origin = HTTPField.Name("Origin")!
            let form = "application/x-www-form-urlencoded"
            for uri in ["/signin", "/join/\(invitation.code)"] {
                let fromSibling = try await post(client, uri, contentType: form, body: "code=ABCD-EFGH&timeZone=Asia%2FTokyo",
                                                 headers: [sameSite: "same-site", origin: "https://evil.study.example"])
                #expect(fromSibling.status == .forbidden, "\(uri)")
                let withoutOrigin = try await post(client, uri, contentType: form, body: "code=ABCD-EFGH", headers: [sameSite: "same-site"])
                #expect(withoutOrigin.status == .forbidden, "\(uri)")
            }
            // The invitation was not used by the refused posts: it still enrols.
            #expect(try await service.workflow.invitationIsUsable(invitation.code))
        }
        // Same-site from the server's own host passes (a router test has no Host, so this is checked on a request).
        var fields = HTTPFields()
        fields[HTTPField.Name("Sec-Fetch-Site")!] = "same-site"
        fields[HTTPField.Name("Origin")!] = "https://study.example"
        let own = Request(head: HTTPRequest(method: .post, scheme: "https", authority: "study.example", path: "/signin", headerFields: fields),
                          body: RequestBody(buffer: ByteBuffer()))
        #expect(throws: Never.self) { try StudyPageMiddleware.refuseCrossSitePost(own) }
    }

    @Test func aFloodOfWrongCodesFromOneAddressDoesNotLockOthersOut() async throws {
        let clock = Fixture.Clock(Self.start)
        let service = try Fixture.service(clock: clock)
        let signedIn = try await Fixture.participant(of: service, zone: TimeZone(identifier: "Asia/Tokyo")!)
        let code = try await service.makeSignInCode(for: signedIn.participant)
        // The attacker's address runs dry after its own burst and stays dry for the rest of the flood.
        var refused = 0
        for _ in 0..<1_000 {
            do { _ = try await service.signIn(code: "0000-0000", from: "203.0.113.9") } catch let error as StudyServerError where error.status == .tooManyRequests { refused += 1 }
        }
        #expect(refused == 1_000 - Int(service.signInAttempts.clientBurst))
        // A participant elsewhere signs in at once.
        #expect(try await service.signIn(code: code.code, from: "198.51.100.20") != nil)
    }

    @Test func theServerWideLimitStillHoldsAgainstManyAddresses() async throws {
        let limiter = SignInAttemptLimiter(burst: 5, failuresPerSecond: 1, clientBurst: 2, clientFailuresPerSecond: 0.1)
        let now = Self.start
        for client in 0..<5 {
            #expect(try await limiter.allowsAttempt(from: "10.0.0.\(client)", at: now))
            try await limiter.recordFailure(from: "10.0.0.\(client)", at: now)
        }
        #expect(try await limiter.allowsAttempt(from: "10.0.0.99", at: now) == false)
        #expect(try await limiter.allowsAttempt(from: "10.0.0.99", at: now.addingTimeInterval(1)))
    }

    @Test func forwardedAddressesAreTrustedOnlyFromNamedProxies() throws {
        let proxy = try SocketAddress(ipAddress: "10.0.0.2", port: 40_000)
        let stranger = try SocketAddress(ipAddress: "203.0.113.9", port: 40_000)
        let trusted: Set = ["10.0.0.2", "10.0.0.3"]
        // From a peer that is not a trusted proxy the header is anyone's invention.
        #expect(ClientAddress.resolve(peer: stranger, forwardedFor: "198.51.100.1", trustedProxies: trusted) == "203.0.113.9")
        #expect(ClientAddress.resolve(peer: proxy, forwardedFor: "198.51.100.1", trustedProxies: []) == "10.0.0.2")
        // From a trusted proxy: the last address that is not a trusted proxy, whatever the client put before it.
        #expect(ClientAddress.resolve(peer: proxy, forwardedFor: "1.2.3.4, 198.51.100.1", trustedProxies: trusted) == "198.51.100.1")
        #expect(ClientAddress.resolve(peer: proxy, forwardedFor: "198.51.100.1, 10.0.0.3", trustedProxies: trusted) == "198.51.100.1")
        #expect(ClientAddress.resolve(peer: proxy, forwardedFor: nil, trustedProxies: trusted) == "10.0.0.2")
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: "198.51.100.1", trustedProxies: trusted) == "unknown")
        #expect(StudyServerConfiguration.isIPAddress("2001:db8::1") && StudyServerConfiguration.isIPAddress("10.0.0.2"))
        #expect(!StudyServerConfiguration.isIPAddress("proxy.internal"))
    }

    @Test func theDataFolderAndEverythingTheServerCreatesAreOwnerOnlyWhateverTheUmask() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let service = try Fixture.service(clock: Fixture.Clock(Self.start))
        let data = service.configuration.dataFolder
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: data.appendingPathComponent(path).path)[.posixPermissions] as? Int)
        }
        #expect(try mode("") == 0o700)
        for file in ["study.sqlite", "keys/web-secret", "keys/consent-signing-key.ed25519"] {
            let fileMode = try mode(file)
            #expect(fileMode & 0o077 == 0, "\(file) is \(String(fileMode, radix: 8))")
        }
        for companion in ["study.sqlite-wal", "study.sqlite-shm"] where FileManager.default.fileExists(atPath: data.appendingPathComponent(companion).path) {
            #expect(try mode(companion) & 0o077 == 0, "\(companion)")
        }
    }

    @Test func aKeysFolderOfItsOwnHoldsTheServersKeysAndTwoServicesShareThem() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("keys-folder-\(UUID().uuidString)")
        let keys = data.deletingLastPathComponent().appendingPathComponent("keys-\(UUID().uuidString)/study")
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: keys.deletingLastPathComponent()) }
        func service(_ folder: URL) throws -> StudyService {
            var configuration = StudyServerConfiguration(studyFolder: Fixture.repository.appendingPathComponent("examples/studies/recover"),
                                                         dataFolder: folder, passwordCost: 4)
            configuration.keysFolder = keys
            let environment = StudyKitEnvironment(now: { Self.start }, makeUUID: { UUID() })
            let database = try SQLiteStudyDatabase.openForServer(dataFolder: folder, environment: environment, durability: .processCrash,
                                                                 auditAnchorInterval: .zero)
            return try StudyService(study: try StudyServerApplication.loadStudy(configuration), configuration: configuration, data: database,
                                    environment: environment, pdfRenderer: Fixture.NoPDF())
        }
        let first = try service(data.appendingPathComponent("a"))
        for file in ["web-secret", "consent-signing-key.ed25519"] {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: keys.appendingPathComponent(file).path)[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0, "\(file) is \(String(mode, radix: 8))")
        }
        // (The SQLite database under the data folder signs its audit anchor with the data folder's own key: `studykit`
        // takes --keys only with --database, where the database's keys come from the same folder.)
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("a/keys/web-secret").path), "the web secret was written in the data folder")
        // A second process given the same keys folder signs and seals with the same keys: a session's CSRF token made by
        // one verifies on the other.
        let second = try service(data.appendingPathComponent("b"))
        #expect(first.consentKey.publicKey == second.consentKey.publicKey)
        #expect(first.signer.csrfToken(forSession: "a session") == second.signer.csrfToken(forSession: "a session"))
    }

    @Test func aWebSecretOthersCanReadIsRefused() throws {
        let service = try Fixture.service(clock: Fixture.Clock(Self.start))
        let secret = service.configuration.dataFolder.appendingPathComponent("keys/web-secret").path
        #expect(chmod(secret, 0o644) == 0)
        #expect {
            _ = try Fixture.service(clock: Fixture.Clock(Self.start), dataFolder: service.configuration.dataFolder)
        } throws: { error in
            "\(error)".contains("web-secret may be read by other accounts (mode 644)")
        }
    }
}

/// A body trickled in a byte at a time cannot hold a connection for ever; one that keeps a phone's pace can.
@Suite("Slow request bodies")
struct SlowRequestBodyHandlerTests {
    private func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: SlowRequestBodyHandler(gracePeriod: .seconds(60), minimumBytesPerSecond: 1_024,
                                                                      checkInterval: .seconds(5)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        try channel.writeInbound(HTTPRequestPart.head(HTTPRequest(method: .post, scheme: "http", authority: "study.example", path: "/runs/x")))
        return channel
    }

    private func send(_ bytes: Int, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x61, count: bytes)))
    }

    @Test func aBodyTrickledInAfterTheGracePeriodClosesTheConnection() throws {
        let channel = try channel()
        for _ in 0..<12 {
            try send(10, to: channel)
            channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        }
        // 120 bytes in 60 seconds: far below a kilobyte a second.
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(!channel.isActive)
    }

    @Test func aBodyAtAPhonesPaceIsLeftAloneAndTheNextRequestStartsAfresh() throws {
        let channel = try channel()
        for _ in 0..<60 {
            try send(4_096, to: channel)
            channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        }
        #expect(channel.isActive)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        // Between requests the handler waits for nothing (the idle timeout is Hummingbird's).
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(channel.isActive)
        _ = try channel.finish(acceptAlreadyClosed: true)
    }
}
