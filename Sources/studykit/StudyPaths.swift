import ArgumentParser
import Foundation
import Study

/// Where the bundled example study is: beside the package when run from a checkout.
enum StudyPaths {
    static var defaultStudy: String { "examples/studies/recover" }

    /// Refuses empty folder names, which would put the data in the current folder unasked, and a data folder that
    /// is a source checkout (see ``StudyDataFolder``).
    static func check(study: String, data: String) throws {
        if study.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--study must name a study folder") }
        try check(data: data)
    }

    /// Who a command acts as in the audit trail: the command and the operating system's user.
    static func auditSource(_ command: String) -> AuditSource {
        AuditSource(actor: "command line: studykit \(command) (user \(ProcessInfo.processInfo.userName))")
    }

    /// Refuses a `--data` that is empty or a source checkout, saying why.
    static func check(data: String) throws {
        do { _ = try StudyDataFolder(path: data) } catch { throw ValidationError("--data: \(error)") }
    }
}
