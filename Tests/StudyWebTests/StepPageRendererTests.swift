import Foundation
import Research
import Testing
@testable import StudyWeb

@Suite("Step pages")
struct StepPageRendererTests {
    @Test func everyStepOfTheExampleRendersAsAWellFormedPageUnderTheBudget() throws {
        var session = try Fixtures.session()
        var kinds: Set<StepType> = []
        var formats: Set<AnswerFormatType> = []
        var rendered: [String] = []
        while let step = session.currentStep {
            let html = try Fixtures.render(session)
            let problems = PageChecks.problems(in: html)
            #expect(problems.isEmpty, "step \(step.identifier): \(problems)")
            #expect(html.contains("value=\"\(step.identifier)\""), "step \(step.identifier) names itself in the form")
            for question in step.questions {
                formats.insert(question.format.type)
            }
            kinds.insert(step.kind.type)
            rendered.append(step.identifier)
            try Fixtures.advance(&session)
        }
        #expect(kinds == Set(StepType.allCases), "step kinds rendered: \(kinds)")
        #expect(formats == Set(AnswerFormatType.allCases), "formats rendered: \(formats)")
        #expect(rendered.count == (try Fixtures.everyFormat()).steps.count)
    }
}
