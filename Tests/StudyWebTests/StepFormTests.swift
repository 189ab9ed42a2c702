import Foundation
import Research
import Testing
@testable import StudyWeb

/// ``StepForm`` describes exactly the fields of the step's web form, so that the REST API's clients post what a
/// browser posts.
@Suite("Step form")
struct StepFormTests {
    /// The names of the fields a page's form posts (its own, not `_csrf`, `_step` or the buttons' `action`).
    private func postedNames(in html: String) -> Set<String> {
        Set(PageChecks.matches(#"<(?:input|select|textarea)[^>]*\sname="([^"]+)""#, in: html))
            .subtracting([StepSubmission.csrfFieldName, StepSubmission.stepFieldName, StepSubmission.actionFieldName])
    }

    @Test(arguments: [("en_US_POSIX", false), ("en_US", true)])
    func everyStepOfEveryFormatListsTheFieldsItsPageHas(locale: String, typedSignature: Bool) throws {
        var session = try Fixtures.session(locale: Locale(identifier: locale))
        var seen = 0
        while let step = session.currentStep {
            let html = try Fixtures.render(session, typedSignature: typedSignature)
            let form = StepForm(step: step, locale: session.locale, timeZone: session.timeZone, allowsTypedSignature: typedSignature)
            #expect(Set(form.fields.map(\.name)) == postedNames(in: html), "step \(step.identifier)")
            #expect(form.fields.count == Set(form.fields.map(\.name)).count, "step \(step.identifier): a name listed twice")
            for field in form.fields where field.input == .choice || field.input == .choices {
                #expect(!field.choices.isEmpty && field.choices.map(\.number) == Array(1...field.choices.count), "\(field.name)")
            }
            seen += form.fields.count
            try Fixtures.advance(&session)
        }
        #expect(seen > 30)
    }

    /// As the session checks Next: a question step's answer is required, its "other" text and "I don't know" are not.
    @Test func aQuestionStepsAnswerIsRequiredForNextAndItsExtrasAreNot() throws {
        let task = try ResearchTask(identifier: "where", steps: [
            Step(identifier: "location", kind: .question(.textChoice(TextChoiceFormat(style: .multiple, choices: [
                TextChoice(text: "Knee", value: "knee"),
                TextChoice(text: "Elsewhere", value: "other", other: OtherChoice()),
            ]))), title: "Where?", isOptional: true),
        ])
        let form = StepForm(step: try #require(task.steps.first), locale: Locale(identifier: "en"), timeZone: .gmt, allowsTypedSignature: false)
        #expect(form.fields.map(\.name) == ["q0", "q0-other2"])
        #expect(form.fields.map(\.isOptional) == [false, true])
    }

    @Test func compositeAnswersAreDescribedPartByPart() throws {
        let task = try ResearchTask(identifier: "body", steps: [
            Step(identifier: "measures", kind: .form(FormContent(items: [
                FormItem(identifier: "height", text: "Height", answerFormat: .height(HeightFormat(measurementSystem: .local))),
                FormItem(identifier: "sleep", text: "Sleep", answerFormat: .timeInterval(TimeIntervalFormat())),
            ]))),
        ])
        let step = try #require(task.steps.first)
        let us = StepForm(step: step, locale: Locale(identifier: "en_US"), timeZone: .gmt, allowsTypedSignature: false)
        #expect(us.fields.map(\.name) == ["q0-ft", "q0-in", "q1-h", "q1-m"])
        #expect(us.fields.map(\.unit) == ["ft", "in", "h", "min"])
        #expect(us.fields.map(\.label) == ["Height", "Height", "Sleep", "Sleep"])
        #expect(us.fields.allSatisfy { $0.input == .number })
        let metric = StepForm(step: step, locale: Locale(identifier: "de_DE"), timeZone: .gmt, allowsTypedSignature: false)
        #expect(metric.fields.map(\.name) == ["q0", "q1-h", "q1-m"] && metric.fields.first?.unit == "cm")
    }
}
