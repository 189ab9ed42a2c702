import Foundation
import JSONDiagnostics
import StudyFHIR
import Testing
@testable import Study

/// The `study.yaml` in README.md's "Study folders" section is a valid study, beside Recover's onboarding and surveys.
@Suite("README study example")
struct ReadmeStudyTests {
    static func readmeStudyYAML() throws -> String {
        let readme = try String(contentsOf: StudyFixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Study folders"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```yaml\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        return String(rest[open.upperBound..<close.lowerBound])
    }

    @Test func theReadmeStudyLoads() throws {
        let yaml = try Self.readmeStudyYAML()
        try StudyFixtures.withRecoverCopy { folder in
            try yaml.write(to: folder.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
            let study = try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
            #expect(study.tasks.map(\.id) == ["exercises", "pain", "weekly", "checkIn"])
            #expect(study.languages == ["en", "ja", "zh-Hans"])
            #expect(study.task(id: "exercises")?.schedule.first?.targetValues.first?.value == .integer(3))
            #expect(study.task(id: "weekly")?.schedule.first?.repetition == .weekly([.monday, .thursday]))
            #expect(study.task(id: "pain")?.schedule.first?.lastDay == 42)
            // The check-in: its own day-14 event, then the weekly task's elements.
            #expect(study.task(id: "checkIn")?.schedule.count == 2)
            #expect(study.contacts.first?.address?.state == "IL")
        }
    }

    @Test func everyKeyTheLoaderKnowsIsInTheReadmeExample() throws {
        let yaml = try Self.readmeStudyYAML()
        let value = try StudyDocumentParser.parseYAML(yaml)
        var keys = Set<String>()
        func collect(_ value: JSONTree) {
            switch value {
            case .object(let pairs): for pair in pairs { keys.insert(pair.key); collect(pair.value) }
            case .array(let values): values.forEach(collect)
            default: break
            }
        }
        collect(value)
        let documented = ["identifier", "name", "languages", "theme", "tint", "consent", "document", "translations", "onboarding", "strings",
                          "enrolment", "mode", "tasks", "id", "title", "instructions", "impactsAdherence", "survey", "outcome", "question",
                          "kind", "units", "schedule", "daily", "weekly", "once", "sameAs", "at", "from", "for", "until", "on", "day",
                          "weeks", "duration", "text", "targetValues", "value", "contacts", "givenName", "familyName", "role",
                          "organization", "category", "phones", "emails", "messaging", "address", "label", "street", "city", "state",
                          "postalCode", "country", "reminders", "task", "notMoreOftenThan", "onByDefault", "hours", "quietHours"]
        for key in documented { #expect(keys.contains(key), "README's study.yaml does not show '\(key)'") }
    }
}
