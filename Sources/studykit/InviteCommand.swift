import ArgumentParser
import Foundation
import Study
import StudyServer

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

    @OptionGroup var place: StudyDataLocation

    @Option(name: .customLong("base-url"), help: "The address participants open, before /join/CODE.")
    var baseURL: String = "http://127.0.0.1:8080"

    @Option(help: "A label kept with the invitations (for example a site or a cohort).")
    var label: String?

    func validate() throws {
        guard (1...10_000).contains(count) else { throw ValidationError("--count must be between 1 and 10000") }
        if study.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--study must name a study folder") }
    }

    func run() async throws {
        umask(0o077)
        let configuration = StudyServerConfiguration(studyFolder: URL(fileURLWithPath: study, isDirectory: true), dataFolder: place.dataFolder)
        // The study is loaded to check it; only the database is opened: no server is built.
        let opened: OpenedStudyDatabase
        do {
            _ = try StudyServerApplication.loadStudy(configuration)
            opened = try await place.openForWriting()
        } catch {
            FileHandle.standardError.write(Data("studykit invite: \(error)\n".utf8))
            throw ExitCode(1)
        }
        defer { opened.close() }
        let database = opened.database
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        try await AuditTrail.$source.withValue(StudyPaths.auditSource("invite")) {
            for _ in 0..<count {
                let issued = try await database.studyStore.createInvitation(label: label, expiresAt: nil)
                print("\(base)/join/\(issued.code)")
            }
        }
    }
}
