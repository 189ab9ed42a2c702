import Foundation

/// `tests/support/smtp_server.py` (aiosmtpd) running as a child process on a port of its choosing, keeping each
/// message it accepts as `N.eml` and `N.json` in its mail folder.
///
/// Use it through ``withTestSMTPServer(in:_:environment:_:)``, which stops it whatever happens. It also stops by itself
/// when its standard input closes, so a test process that crashes leaves no server behind.
final class TestSMTPServer {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    /// Where it writes the messages.
    let maildir: URL
    private let process: Process
    private let input: Pipe

    /// The package's root folder, found from this file's path (its real one: the tests may be built through a link).
    static let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Starts the server with `arguments` (besides its port and mail folder, which are `folder/mail`) and waits for the
    /// port it prints.
    init(in folder: URL, arguments: [String], environment: [String: String]) async throws {
        let python = Self.packageRoot.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw TestSetupError(description: "\(python.path) is missing: run `make test`, which makes the virtual environment with aiosmtpd")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        maildir = folder.appendingPathComponent("mail")
        let errorLog = folder.appendingPathComponent("smtp-server.log")
        try Data().write(to: errorLog)
        process = Process()
        process.executableURL = python
        process.arguments = [Self.packageRoot.appendingPathComponent("tests/support/smtp_server.py").path,
                             "--port", "0", "--maildir", maildir.path, "--stop-on-stdin-eof"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        // The server prints its port once it listens; if it fails first, it exits and the read ends. A watchdog ends a
        // server that neither prints nor exits.
        let watchdog = DispatchWorkItem { [process] in process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        let line = await Self.firstLine(of: output.fileHandleForReading)
        watchdog.cancel()
        guard let line, let port = Int(line) else {
            process.terminate()
            process.waitUntilExit()
            let log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            throw TestSetupError(description: "the test SMTP server did not start (it printed \(line.map { "\"\($0)\"" } ?? "nothing"));"
                                 + " `make test` installs its Python packages into .venv. Its errors: \(log)")
        }
        self.port = port
    }

    /// Stops the server and waits for it to exit.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The numbers of the messages received so far, in order.
    var messageNumbers: [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: maildir.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") && !$0.hasPrefix(".") }.compactMap { Int($0.dropLast(4)) }.sorted()
    }

    /// The raw bytes of message `number`.
    func message(_ number: Int) throws -> [UInt8] {
        Array(try Data(contentsOf: maildir.appendingPathComponent("\(number).eml")))
    }

    /// The envelope of message `number`, as the server received it.
    func envelope(_ number: Int) throws -> ReceivedEnvelope {
        try JSONDecoder().decode(ReceivedEnvelope.self, from: Data(contentsOf: maildir.appendingPathComponent("\(number).json")))
    }

    /// Reads up to the first line feed, the port line, on a thread of its own (the read blocks).
    private static func firstLine(of handle: FileHandle) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: readLine(of: handle)) }
        }
    }

    private static func readLine(of handle: FileHandle) -> String? {
        var bytes = Data()
        while true {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { return nil }
            bytes.append(chunk)
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: bytes[..<newline], as: UTF8.self)
            }
        }
    }
}

/// What `N.json` says of a received message.
struct ReceivedEnvelope: Decodable, Equatable {
    let mailFrom: String
    let rcptTos: [String]
    let tls: Bool
    let authLogin: String?

    enum CodingKeys: String, CodingKey {
        case mailFrom = "mail_from", rcptTos = "rcpt_tos", tls, authLogin = "auth_login"
    }
}

/// Runs `body` with a test SMTP server started with `arguments` in `folder`, and stops the server afterwards, whether
/// `body` returns or throws.
func withTestSMTPServer<Value>(
    in folder: URL, _ arguments: [String] = [], environment: [String: String] = [:], _ body: (TestSMTPServer) async throws -> Value
) async throws -> Value {
    let server = try await TestSMTPServer(in: folder, arguments: arguments, environment: environment)
    defer { server.stop() }
    return try await body(server)
}
