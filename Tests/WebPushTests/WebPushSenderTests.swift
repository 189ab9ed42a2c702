import Foundation
import Testing
import WebPush

/// A push service on 127.0.0.1 for the sender to talk to: Python's `http.server` from the project's virtual
/// environment, on a port the system picks, which the child prints. `POST /push/STATUS` is answered with that status
/// (429 with `Retry-After: 120`, 302 with a `Location` back to `/push/201`), `POST /push/hang` never; every request is
/// written to the folder as `request-N.json` before it is answered. The child exits when its standard input closes, so
/// it never outlives the test process.
final class LocalPushService: Sendable {
    static let script = #"""
    import base64, http.server, json, os, sys, threading, time

    folder = sys.argv[1]
    lock = threading.Lock()
    count = [0]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                count[0] += 1
                number = count[0]
            record = {"method": self.command, "path": self.path, "body": base64.b64encode(body).decode(),
                      "headers": {name.lower(): value for name, value in self.headers.items()}}
            with open(os.path.join(folder, ".request-%d.json" % number), "w") as file:
                json.dump(record, file)
            os.rename(os.path.join(folder, ".request-%d.json" % number), os.path.join(folder, "request-%d.json" % number))
            what = self.path.rsplit("/", 1)[-1]
            if what == "hang":
                time.sleep(60)
                return
            status = int(what)
            answer = b'{"reason":"test answer"}' if status >= 400 else b""
            self.send_response(status)
            if status == 429:
                self.send_header("Retry-After", "120")
            if status == 302:
                self.send_header("Location", "http://127.0.0.1:%d/push/201" % self.server.server_port)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_port, flush=True)

    def exit_when_parent_goes():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=exit_when_parent_goes, daemon=True).start()
    server.serve_forever()
    """#

    struct Request {
        var method: String
        var path: String
        var headers: [String: String]
        var body: Data
    }

    let folder: URL
    let port: Int
    private let process: Process
    private let input: Pipe

    /// Starts the service and waits until it has printed its port.
    init(python: URL) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("webpush-service-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = python
        process.arguments = ["-c", Self.script, folder.path]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = await Self.firstLine(of: output.fileHandleForReading)
        guard let port = Int(line) else {
            process.terminate()
            process.waitUntilExit()
            throw LocalPushServiceError.noPort(printed: line)
        }
        self.port = port
    }

    /// The origin to allow in the sender's policy.
    var origin: String { "http://127.0.0.1:\(port)" }

    /// The service's endpoint answering `what` (a status, or `hang`).
    func endpoint(answering what: String) -> String { "\(origin)/push/\(what)" }

    /// The requests received so far, in order.
    func requests() throws -> [Request] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("request-") }
        return try names.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }.map { name in
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return Request(method: object["method"] as? String ?? "", path: object["path"] as? String ?? "",
                           headers: object["headers"] as? [String: String] ?? [:],
                           body: Data(base64Encoded: object["body"] as? String ?? "") ?? Data())
        }
    }

    /// Stops the service (closing its standard input ends it), waits for it, and removes its folder.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The first line `handle` gives (without its newline), read off the test's thread; what there was if it closed first.
    private static func firstLine(of handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes += chunk
                    if bytes.contains(UInt8(ascii: "\n")) { break }
                }
                continuation.resume(returning: String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
            }
        }
    }
}

enum LocalPushServiceError: Error {
    case noPort(printed: String)
}

/// ``WebPushSender`` against a local push service (``LocalPushService``): each answer is classified as
/// ``WebPushDelivery`` says, a redirect is not followed, a service that does not answer times out, an endpoint the
/// policy refuses is never contacted, and what arrives is a POST with the headers whose body http_ece decrypts.
@Suite("Sending to a push service")
struct WebPushSenderTests {
    static let now = VAPIDTests.now

    /// A message to `endpoint` for `browser`, signed with `key`.
    func message(to endpoint: String, for browser: TestBrowser, key: VAPIDKey = .generate(), payload: Data = Data("Time for today's diary".utf8)) throws -> WebPushMessage {
        try WebPushMessage(payload: payload, for: try browser.subscription(endpoint: endpoint, allowInsecureEndpoints: true), key: key,
                           subject: "mailto:study-team@example.org", now: Self.now, timeToLive: 3600, urgency: .low,
                           topic: "daily-diary", randomBytes: TestRandom.secure)
    }

    @Test(arguments: ["201", "202", "404", "410", "413", "429", "500", "302"])
    func eachAnswerIsClassified(answer: String) async throws {
        guard let python = ProjectPython.executable() else { return }
        let service = try await LocalPushService(python: python)
        defer { service.stop() }
        let sender = WebPushSender(policy: PushServicePolicy(allowedHosts: [], allowedOrigins: [service.origin]), now: { Self.now })
        let delivery = await sender.send(try message(to: service.endpoint(answering: answer), for: TestBrowser()))

        switch answer {
        case "201", "202":
            #expect(delivery == .delivered(status: Int(answer)!))
        case "404", "410":
            #expect(delivery == .subscriptionGone(status: Int(answer)!))
            #expect(delivery.subscriptionIsGone)
        case "413":
            guard case .permanentFailure(status: 413, let reason) = delivery else { Issue.record("413 gave \(delivery)"); break }
            #expect(reason.contains("too large") && reason.contains("test answer"))
        case "429":
            #expect(delivery == .temporaryFailure(status: 429, retryAfter: Self.now.addingTimeInterval(120),
                                                  reason: #"the push service asked for fewer requests (429): {"reason":"test answer"}"#))
        case "500":
            guard case .temporaryFailure(status: 500, retryAfter: nil, _) = delivery else { Issue.record("500 gave \(delivery)"); break }
        case "302":
            guard case .permanentFailure(status: 302, let reason) = delivery else { Issue.record("302 gave \(delivery)"); break }
            #expect(reason.contains("redirect"))
        default:
            Issue.record("no expectation for \(answer)")
        }
        // One request each: the redirect to /push/201 was not followed.
        let requests = try service.requests()
        #expect(requests.map(\.path) == ["/push/\(answer)"])
    }

    @Test func theRequestIsAPOSTWithTheHeadersAndABodyHttpECEDecrypts() async throws {
        guard let python = ProjectPython.executable() else { return }
        let service = try await LocalPushService(python: python)
        defer { service.stop() }
        let browser = TestBrowser()
        let key = VAPIDKey.generate()
        let payload = Data(#"{"title":"Time for today's diary","url":"/today"}"#.utf8)
        let message = try message(to: service.endpoint(answering: "201"), for: browser, key: key, payload: payload)
        let sender = WebPushSender(policy: PushServicePolicy(allowedOrigins: [service.origin]), now: { Self.now })
        #expect(await sender.send(message) == .delivered(status: 201))

        let request = try #require(try service.requests().first)
        #expect(request.method == "POST")
        #expect(request.headers["content-encoding"] == "aes128gcm")
        #expect(request.headers["content-type"] == "application/octet-stream")
        #expect(request.headers["content-length"] == String(message.body.count))
        #expect(request.headers["ttl"] == "3600")
        #expect(request.headers["urgency"] == "low")
        #expect(request.headers["topic"] == "daily-diary")
        #expect(request.headers["authorization"] == message.headers["Authorization"])
        #expect(request.headers["authorization"]?.hasPrefix("vapid t=") == true)
        #expect(request.headers["cookie"] == nil)
        #expect(request.body == message.body)
        #expect(try await OutsideImplementation.decrypt(request.body, as: browser) == payload)
    }

    /// A push service that never answers: the 1 s timeout ends the wait (not before it; a sender that ignored it would
    /// wait until the test's time limit).
    @Test(.timeLimit(.minutes(1)))
    func aServiceThatDoesNotAnswerTimesOutAsATemporaryFailure() async throws {
        guard let python = ProjectPython.executable() else { return }
        let service = try await LocalPushService(python: python)
        defer { service.stop() }
        let sender = WebPushSender(policy: PushServicePolicy(allowedOrigins: [service.origin]), timeout: .seconds(1), now: { Self.now })
        let started = ContinuousClock.now
        let delivery = await sender.send(try message(to: service.endpoint(answering: "hang"), for: TestBrowser()))
        let waited = ContinuousClock.now - started
        #expect(delivery == .temporaryFailure(status: nil, retryAfter: nil, reason: "the push service did not answer within 1 s"))
        #expect(waited >= .milliseconds(900), "waited \(waited)")
        #expect(try service.requests().count == 1)
        // Foundation on Linux counts whole seconds only: a fraction is rounded up rather than dropped.
        #expect(WebPushSender(timeout: .milliseconds(300), now: { Self.now }).timeout == .seconds(1))
        #expect(WebPushSender(timeout: .milliseconds(2500), now: { Self.now }).timeout == .seconds(3))
    }

    @Test func anEndpointThePolicyRefusesIsNeverContacted() async throws {
        guard let python = ProjectPython.executable() else { return }
        let service = try await LocalPushService(python: python)
        defer { service.stop() }
        // The browsers' policy, without the local origin.
        let sender = WebPushSender(now: { Self.now })
        let delivery = await sender.send(try message(to: service.endpoint(answering: "201"), for: TestBrowser()))
        #expect(delivery == .permanentFailure(status: nil, reason: PushServicePolicyError.ipAddress(host: "127.0.0.1").description))
        #expect(try service.requests().isEmpty)
    }
}
