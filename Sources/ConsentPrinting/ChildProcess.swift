import Consent
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion with a time limit, its output going to files (so a chatty program can
/// never block on a full pipe). Foundation starts the child in its own process group, so on timeout the
/// whole group — Chromium's renderer and GPU helpers included — is killed.
struct ChildProcess {
    /// How a run ended.
    enum Outcome {
        case exited(Int32)
        case timedOut
    }

    var executable: String
    var arguments: [String]
    var environment: [String: String]?
    var standardOutput: URL
    var standardError: URL
    var timeLimit: Duration

    func run() async throws -> Outcome {
        for log in [standardOutput, standardError] where !FileManager.default.createFile(atPath: log.path, contents: nil) {
            throw ConsentPDFError.temporaryFiles(path: log.path, reason: "cannot create the log file")
        }
        let output = try FileHandle(forWritingTo: standardOutput)
        let errors = try FileHandle(forWritingTo: standardError)
        defer {
            try? output.close()
            try? errors.close()
        }
        let finished = ProcessExit()
        func makeProcess() -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let environment { process.environment = environment }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = errors
            process.terminationHandler = { ended in finished.signal(status: ended.terminationStatus) }
            return process
        }
        var process = makeProcess()
        // "Text file busy": a program written just now can be held open for writing by a child another thread forked
        // before it closed, until that child execs. It clears within moments, so the start is tried again.
        for attempt in 1... {
            do {
                try process.run()
                break
            } catch where Self.isTextFileBusy(error) && attempt < 10 {
                try await Task.sleep(for: .milliseconds(20 * attempt))
                process = makeProcess()
            }
        }
        let pid = process.processIdentifier
        let watchdog = Task {
            try await Task.sleep(for: timeLimit)
            finished.markTimedOut()
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        let status = await finished.wait()
        watchdog.cancel()
        // Helpers left behind by a program that exited on its own are ended too.
        kill(-pid, SIGKILL)
        return finished.timedOut ? .timedOut : .exited(status)
    }

    /// Whether starting a program failed with ETXTBSY, as Foundation reports it (directly, or under a Cocoa error).
    static func isTextFileBusy(_ error: any Error) -> Bool {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return error.code == Int(ETXTBSY) }
        return (error.userInfo[NSUnderlyingErrorKey] as? NSError).map(isTextFileBusy) ?? false
    }

    /// The last `limit` characters of a file, trimmed; for error messages.
    static func tail(of file: URL, limit: Int = 2000) -> String {
        guard let data = try? Data(contentsOf: file) else { return "" }
        let text = String(decoding: data.suffix(limit), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "(nothing on stderr)" : text
    }

    /// The first executable among `names` (absolute paths as they are, bare names looked up in `PATH`).
    static func locate(_ names: [String], searchPath: [String]) -> String? {
        for name in names {
            if name.contains("/") {
                if FileManager.default.isExecutableFile(atPath: name) { return name }
                continue
            }
            for directory in searchPath {
                let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name).path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// The directories of the `PATH` environment variable.
    static var environmentSearchPath: [String] {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }
}

/// The child's exit, waited for by one task and signalled from Foundation's termination handler.
private final class ProcessExit: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int32?
    private var waiter: CheckedContinuation<Int32, Never>?
    private var didTimeOut = false

    func signal(status: Int32) {
        lock.lock()
        self.status = status
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: status)
    }

    func markTimedOut() {
        lock.lock()
        didTimeOut = true
        lock.unlock()
    }

    var timedOut: Bool {
        lock.lock()
        defer { lock.unlock() }
        return didTimeOut
    }

    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let status {
                lock.unlock()
                continuation.resume(returning: status)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
