import ArgumentParser
import Foundation
import Interop
import StudyKitEnvironment

/// `studykit fhirpath --resource FILE [--questionnaire FILE] [--variable NAME=FILE]… EXPRESSION…`: evaluates
/// FHIRPath expressions on a FHIR resource and prints one JSON line per expression, so other tools (the
/// Python agreement tests) can compare the results.
struct FHIRPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fhirpath",
        abstract: "Evaluate FHIRPath expressions on a FHIR resource; print one JSON line per expression.",
        discussion: """
            Each line is {"expression": "…", "result": […]} or {"expression": "…", "error": "…"}; a result lists the \
            collection's items as JSON (elements as they are in the resource, dates and times as their text without \
            '@', quantities as {"value": N, "unit": "…"}), with object keys sorted. --questionnaire sets \
            %questionnaire, which ordinal() reads; each --variable NAME=FILE sets %NAME to that file's JSON. Put -- \
            before the expressions when one starts with '-'. Exits 0 when every expression evaluated, 1 otherwise \
            (including unreadable files).
            """
    )

    @Option(help: "The FHIR resource (JSON) to evaluate on: %resource, %context and the starting focus.", completion: .file(extensions: ["json"]))
    var resource: String

    @Option(help: "The Questionnaire (JSON) for %questionnaire.", completion: .file(extensions: ["json"]))
    var questionnaire: String?

    @Option(name: .customLong("variable"), help: "NAME=FILE: sets %NAME to the JSON in FILE (repeatable).")
    var variables: [String] = []

    @Argument(help: "FHIRPath expressions, each evaluated on its own.")
    var expressions: [String]

    func run() throws {
        guard let resourceJSON = Self.load(resource, option: "--resource") else { throw ExitCode(1) }
        var environment: [String: FHIRPathCollection] = [:]
        if let questionnaire {
            guard let json = Self.load(questionnaire, option: "--questionnaire") else { throw ExitCode(1) }
            environment["questionnaire"] = [.resource(json, root: "questionnaire")]
        }
        for variable in variables {
            let parts = variable.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                Self.report("--variable: expected NAME=FILE, got '\(variable)'")
                throw ExitCode(1)
            }
            guard let json = Self.load(parts[1], option: "--variable \(parts[0])") else { throw ExitCode(1) }
            environment[parts[0]] = [.resource(json, root: parts[0])]
        }
        // now() and today(): this machine's clock and time zone, once for every expression.
        let live = StudyKitEnvironment.live
        let now = FHIRPathInstant(date: live.now(), timeZone: live.timeZone)
        var failed = false
        for text in expressions {
            var line = FHIRJSONObject([("expression", .string(text))])
            do {
                let result = try FHIRPathExpression(text).evaluate(on: resourceJSON, environment: environment, now: now)
                line["result"] = .array(result.map(\.json))
            } catch {
                line["error"] = .string(error.description)
                failed = true
            }
            print(FHIRJSON.object(line).jsonString(sortedKeys: true))
        }
        if failed { throw ExitCode(1) }
    }

    /// The JSON in `path`, or nil after printing why it cannot be read.
    private static func load(_ path: String, option: String) -> FHIRJSON? {
        guard let data = FileManager.default.contents(atPath: path) else {
            report("\(option): cannot read \(path)")
            return nil
        }
        do {
            return try FHIRJSON(data: data)
        } catch {
            report("\(option): \(path): \(error)")
            return nil
        }
    }

    private static func report(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
