import Foundation
import Testing

/// HL7's SDC example Questionnaires and responses, which nobody on this project wrote: read where the team keeps them,
/// `../shared/fixtures/fhir/` beside the project, and never copied in. In a clone without that folder the tests that
/// need them are skipped, each with the one line ``absent`` says.
enum HL7Fixtures {
    /// `../shared/fixtures/fhir/`, from the package's root.
    static let folder = StudykitProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/fhir")

    /// Whether the fixtures are there.
    static let arePresent = FileManager.default.fileExists(atPath: folder.appendingPathComponent("sdc-phq9-questionnaire.json").path)

    /// Why a test that needs them is skipped.
    static let absent: Comment = "needs HL7's SDC examples (sdc-*.json) in ../shared/fixtures/fhir, which this clone does not have"

    /// The path of fixture `name`.
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}
