import Foundation

/// A new folder under the system's temporary folder for `body`, removed afterwards whatever happens.
func withTemporaryFolder<Value>(_ body: (URL) async throws -> Value) async throws -> Value {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-mail-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// A failure to set a test up, with what to do about it.
struct TestSetupError: Error, CustomStringConvertible {
    let description: String
}

/// Runs `executable` with `arguments` to its end (a short command that writes little, such as openssl), returning
/// its standard output; throws with its standard error if it fails. Its end is awaited, not waited for on the thread
/// (`waitUntilExit` held one of the two threads Swift's concurrency has on two cores, which could leave no thread for
/// the tests that had to run for it to return).
@discardableResult
func run(_ executable: String, _ arguments: [String], in folder: URL? = nil) async throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let (ended, markEnded) = AsyncStream.makeStream(of: Void.self)
    process.terminationHandler = { _ in markEnded.finish() }
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    for await _ in ended {}
    guard process.terminationStatus == 0 else {
        throw TestSetupError(description: "\(executable) \(arguments.joined(separator: " ")) failed: \(String(decoding: errorData, as: UTF8.self))")
    }
    return String(decoding: outputData, as: UTF8.self)
}
