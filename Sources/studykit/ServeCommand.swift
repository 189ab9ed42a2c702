import ArgumentParser
import Foundation
import Study
import StudySQLite
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

    @Option(help: "The data folder (SQLite files, keys, consent PDFs); created when missing.", completion: .directory)
    var data: String = "data"

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

    func validate() throws {
        try StudyPaths.check(study: study, data: data)
        for proxy in trustedProxies where !StudyServerConfiguration.isIPAddress(proxy) {
            throw ValidationError("--trusted-proxy: '\(proxy)' is not an IP address (a proxy is named by its address, not its host name)")
        }
    }

    func run() async throws {
        // Everything the server writes (databases, uploads, printed consents, Chromium's scratch files) is owner-only.
        umask(0o077)
        let configuration = StudyServerConfiguration(studyFolder: URL(fileURLWithPath: study, isDirectory: true),
                                                     dataFolder: URL(fileURLWithPath: data, isDirectory: true),
                                                     host: host, port: port, secureCookies: secureCookies, durability: durability,
                                                     trustedProxies: Set(trustedProxies))
        do {
            let definition = try StudyServerApplication.loadStudy(configuration)
            let service = try StudyService(study: definition, configuration: configuration)
            try await StudyServerApplication.run(service: service, configuration: configuration) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        } catch let error as StudyServerStartError {
            FileHandle.standardError.write(Data("studykit serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// `studykit invite`: prints invitation links for a study's data folder.
struct InviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Print invitation links, each good for one participant.",
        discussion: "Only the codes' SHA-256 digests are stored: the links are shown once. Run it beside a running server or before starting one."
    )

    @Option(help: "How many links to make.")
    var count: Int = 1

    @Option(help: "The study folder.", completion: .directory)
    var study: String = StudyPaths.defaultStudy

    @Option(help: "The data folder the server uses.", completion: .directory)
    var data: String = "data"

    @Option(name: .customLong("base-url"), help: "The address participants open, before /join/CODE.")
    var baseURL: String = "http://127.0.0.1:8080"

    @Option(help: "A label kept with the invitations (for example a site or a cohort).")
    var label: String?

    func validate() throws {
        guard (1...10_000).contains(count) else { throw ValidationError("--count must be between 1 and 10000") }
        try StudyPaths.check(study: study, data: data)
    }

    func run() async throws {
        umask(0o077)
        let configuration = StudyServerConfiguration(studyFolder: URL(fileURLWithPath: study, isDirectory: true),
                                                     dataFolder: URL(fileURLWithPath: data, isDirectory: true))
        // The study is loaded to check it; only the database is opened: no keys are made, no server is built.
        let database: SQLiteStudyDatabase
        do {
            _ = try StudyServerApplication.loadStudy(configuration)
            let folder = try StudyDataFolder(url: configuration.dataFolder)
            try folder.prepare()
            try folder.createOwnerOnlyFiles(named: [folder.database.lastPathComponent])
            database = try SQLiteStudyDatabase(path: folder.database.path)
            try database.mergeCareFile(at: folder.legacyCareDatabase)
        } catch {
            FileHandle.standardError.write(Data("studykit invite: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        for _ in 0..<count {
            let issued = try await database.studyStore.createInvitation(label: label, expiresAt: nil)
            print("\(base)/join/\(issued.code)")
        }
    }
}

/// Where the bundled example study is: beside the package when run from a checkout.
enum StudyPaths {
    static var defaultStudy: String { "examples/studies/recover" }

    /// Refuses empty folder names, which would put the data in the current folder unasked, and a data folder that
    /// is a source checkout (see ``StudyDataFolder``).
    static func check(study: String, data: String) throws {
        if study.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--study must name a study folder") }
        try check(data: data)
    }

    /// Refuses a `--data` that is empty or a source checkout, saying why.
    static func check(data: String) throws {
        do { _ = try StudyDataFolder(path: data) } catch { throw ValidationError("--data: \(error)") }
    }
}
