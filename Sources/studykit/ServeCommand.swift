import ArgumentParser
import Foundation
import StudyKitEnvironment
import Study
import StudyServer

/// `studykit serve`: serves a study folder to participants' browsers.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a study to participants' browsers (default: the bundled Recover study on ./data).",
        discussion: "Refuses to start when the study has a problem, printing each as file: path: message. Stop it with Ctrl-C."
    )

    @Option(help: "The study folder.", completion: .directory)
    var study: String = StudyPaths.defaultStudy

    @OptionGroup var place: StudyDataLocation

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port: Int = 8080

    @Flag(name: .customLong("secure-cookies"), help: "Mark the session cookie Secure (when served behind HTTPS).")
    var secureCookies = false

    @Option(help: ArgumentHelp("What an acknowledged answer survives: process-crash (a killed server; the default) or power-loss (also a crash of the machine; every write waits for the disk).",
                               valueName: "process-crash|power-loss"),
            transform: { text in
                guard let durability = StudyServerConfiguration.Durability(rawValue: text) else {
                    throw ValidationError("--durability must be process-crash or power-loss")
                }
                return durability
            })
    var durability: StudyServerConfiguration.Durability = .processCrash

    @Option(name: .customLong("trusted-proxy"),
            help: ArgumentHelp("The IP address of a reverse proxy in front of the server, whose X-Forwarded-For header names the client (repeat for several). From any other peer the header is ignored.",
                               valueName: "address"))
    var trustedProxies: [String] = []

    @Option(name: .customLong("live-streams-per-address"),
            help: ArgumentHelp("How many live-update streams one client address may hold open at once (one per open page, at most 4 per browser session). Raise it where many participants share one address, such as a clinic's network behind one NAT.",
                               valueName: "count"))
    var liveStreamsPerAddress = 32

    @OptionGroup(title: "Reminders") var reminders: ReminderOptions

    @Option(name: .customLong("clock-start"),
            help: ArgumentHelp("Run the server's clock from this instant (ISO 8601, such as 2027-03-26T09:00:00+01:00) instead of the real time: to show or test the days around a date. It runs at the real speed from there.",
                               valueName: "instant"))
    var clockStart: String?

    func validate() throws {
        if study.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--study must name a study folder") }
        if let clockStart, (try? Date(clockStart, strategy: .iso8601)) == nil {
            throw ValidationError("--clock-start: '\(clockStart)' is not an ISO 8601 instant such as 2027-03-26T09:00:00+01:00")
        }
        guard (1...1_000_000).contains(liveStreamsPerAddress) else {
            throw ValidationError("--live-streams-per-address must be between 1 and 1000000")
        }
        for proxy in trustedProxies where !StudyServerConfiguration.isIPAddress(proxy) {
            throw ValidationError("--trusted-proxy: '\(proxy)' is not an IP address (a proxy is named by its address, not its host name)")
        }
    }

    func run() async throws {
        // Everything the server writes (databases, uploads, printed consents, Chromium's scratch files) is owner-only.
        umask(0o077)
        var configuration = StudyServerConfiguration(studyFolder: URL(fileURLWithPath: study, isDirectory: true), dataFolder: place.dataFolder,
                                                     host: host, port: port, secureCookies: secureCookies, durability: durability,
                                                     trustedProxies: Set(trustedProxies))
        configuration.keysFolder = place.keysFolder
        configuration.liveStreamsPerClient = liveStreamsPerAddress
        do {
            let definition = try StudyServerApplication.loadStudy(configuration)
            do {
                configuration.reminders = try reminders.configuration(studyName: definition.name)
            } catch {
                throw StudyServerStartError("reminders: \(error)")
            }
            var environment = StudyKitEnvironment.live
            if let start = clockStart.flatMap({ try? Date($0, strategy: .iso8601) }) {
                let offset = start.timeIntervalSince(Date())
                environment.now = { Date().addingTimeInterval(offset) }
                FileHandle.standardOutput.write(Data("The server's clock starts at \(start.formatted(.iso8601)), not the real time.\n".utf8))
            }
            let opened: OpenedStudyDatabase
            do {
                opened = try await place.openForServer(environment: environment, durability: durability == .powerLoss ? .powerLoss : .processCrash)
            } catch {
                throw StudyServerStartError("cannot open the study's database \(place.description): \(error)")
            }
            defer { opened.close() }
            let service = try StudyService(study: definition, configuration: configuration, data: opened.database, environment: environment)
            try await StudyServerApplication.run(service: service, configuration: configuration) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        } catch let error as StudyServerStartError {
            FileHandle.standardError.write(Data("studykit serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
