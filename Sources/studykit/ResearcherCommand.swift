import ArgumentParser
import Foundation
import Study

/// `studykit researcher`: the study team's console accounts in a data folder.
struct ResearcherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "researcher",
        abstract: "Add, list and remove the study team's console accounts.",
        discussion: """
            Roles: viewer (reads and exports the study's data), investigator (also countersigns consents and manages \
            invitations and withdrawals), admin (also manages researchers). A new researcher sets their password from a \
            one-time link, printed once; `studykit researcher link` prints a new one (a forgotten password). Run it beside \
            a running server or before starting one.
            """,
        subcommands: [Add.self, Link.self, List.self, Remove.self]
    )

    /// Where the accounts are: the study's database (the data folder's, or `--database`), and the address researchers open.
    struct Place: ParsableArguments {
        @OptionGroup var location: StudyDataLocation

        @Option(name: .customLong("base-url"), help: "The address researchers open, before /console/password/TOKEN.")
        var baseURL: String = "http://127.0.0.1:8080"

        /// Runs `body` with the study's researchers' accounts, the database created and migrated when new (owner-only),
        /// and closed after.
        func withAccounts<T>(_ body: (any ResearcherStore) async throws -> T) async throws -> T {
            let opened: OpenedStudyDatabase
            do {
                opened = try await location.openForWriting()
            } catch {
                FileHandle.standardError.write(Data("studykit researcher: \(error)\n".utf8))
                throw ExitCode(1)
            }
            defer { opened.close() }
            return try await body(opened.database.researchers)
        }

        /// The one-time link of `issued`.
        func link(_ issued: IssuedPasswordLink) -> String {
            (baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL) + "/console/password/" + issued.token
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a researcher and print their one-time link to set a password.")

        @Argument(help: "Their email address, which they sign in with.")
        var email: String

        @Option(help: "viewer, investigator or admin.")
        var role: ResearcherRole

        @OptionGroup var place: Place

        func run() async throws {
            try await AuditTrail.$source.withValue(StudyPaths.auditSource("researcher add")) { try await perform() }
        }

        private func perform() async throws {
            umask(0o077)
            try await place.withAccounts { store in
                do {
                    let researcher = try await store.addResearcher(email: email, role: role)
                    let link = try await store.createPasswordLink(researcherID: researcher.id)
                    print("\(researcher.email) (\(researcher.role.rawValue)) sets a password within \(IssuedPasswordLink.lifetimeInDays) days at:")
                    print(place.link(link))
                } catch let error as ResearcherStoreError {
                    FileHandle.standardError.write(Data("studykit researcher add: \(error)\n".utf8))
                    throw ExitCode(1)
                }
            }
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a new one-time link for a researcher to set their password (earlier links stop working).")

        @Argument(help: "Their email address.")
        var email: String

        @OptionGroup var place: Place

        func run() async throws {
            try await AuditTrail.$source.withValue(StudyPaths.auditSource("researcher link")) { try await perform() }
        }

        private func perform() async throws {
            umask(0o077)
            try await place.withAccounts { store in
                guard let researcher = try await store.researcher(email: email), researcher.removedAt == nil else {
                    FileHandle.standardError.write(Data("studykit researcher link: no researcher has the address \(Researcher.normalizedEmail(email))\n".utf8))
                    throw ExitCode(1)
                }
                let link = try await store.createPasswordLink(researcherID: researcher.id)
                print(place.link(link))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the researchers, their roles and whether they have set a password.")

        @OptionGroup var place: Place

        func run() async throws {
            try await place.withAccounts { store in
                for researcher in try await store.researchers() {
                    let state = researcher.removedAt != nil ? "removed" : researcher.passwordHash == nil ? "no password yet" : "active"
                    print("\(researcher.email)\t\(researcher.role.rawValue)\t\(state)")
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a researcher: they are signed out everywhere and cannot sign in again.")

        @Argument(help: "Their email address.")
        var email: String

        @OptionGroup var place: Place

        func run() async throws {
            try await AuditTrail.$source.withValue(StudyPaths.auditSource("researcher remove")) { try await perform() }
        }

        private func perform() async throws {
            try await place.withAccounts { store in
                guard let researcher = try await store.researcher(email: email) else {
                    FileHandle.standardError.write(Data("studykit researcher remove: no researcher has the address \(Researcher.normalizedEmail(email))\n".utf8))
                    throw ExitCode(1)
                }
                try await store.removeResearcher(id: researcher.id)
                print("\(researcher.email) removed")
            }
        }
    }
}

extension ResearcherRole: ExpressibleByArgument {}
