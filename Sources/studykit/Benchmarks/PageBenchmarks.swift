import Foundation
import StudyKitEnvironment
import Research
import StudyWeb

/// Benchmarks of the participant pages' HTML, without HTTP or a store: the home page of a day with the demo study's
/// seven tasks, and a survey step page (a 0–10 scale, as the pain check asks).
struct PageBenchmarks {
    var secondsPerMeasurement: Double

    func run() throws -> [BenchmarkRow] {
        let sitePages = try SitePageRenderer()
        let stepPages = try StepPageRenderer()
        let strings = WebStrings(language: "en")
        let context = SiteContext(strings: strings, csrfToken: "k2hR0n7Qe9oYxq3VbW5zL1aF8cJtUiPm", studyName: "Recover",
                                  themeTint: "#0a7d6f", assets: .linked(basePath: "/assets"), navigation: true)
        let cards = [
            TaskCard(title: "Knee exercises", instructions: "Ten straight-leg raises, ten heel slides and ten quad sets with your operated leg.",
                     timeText: "08:00", state: .done, action: .none),
            TaskCard(title: "Weekly function survey", instructions: nil, timeText: "Any time today", state: .toDo,
                     action: .start(url: "/tasks/weekly/0")),
            TaskCard(title: "Daily pain check", instructions: "How much does your knee hurt today?", timeText: "Any time today",
                     state: .toDo, action: .start(url: "/tasks/pain/3"), resumes: true),
            TaskCard(title: "Physiotherapy session", instructions: "Bring your exercise diary.", timeText: "14:30", state: .missed,
                     action: .checkOff(formAction: "/tasks/physio/1/done", fields: [:])),
            TaskCard(title: "Mood check", instructions: "Nine questions about the last two weeks.", timeText: "18:00", state: .upcoming,
                     action: .none),
            TaskCard(title: "Two-week check-in", instructions: nil, timeText: "Any time today", state: .toDo,
                     action: .start(url: "/tasks/checkIn/0")),
            TaskCard(title: "Call with the investigator", instructions: "A short call about how the study is going.", timeText: "20:00",
                     state: .upcoming, action: .none),
        ]
        let home = HomePage(dayTitle: "Thursday, 5 March 2026", onboardingRequired: false, cards: cards, notice: nil)
        var size = 0
        let homeRate = measureOperationsPerSecond(seconds: secondsPerMeasurement) {
            size = sitePages.home(home, context: context).utf8.count
        }

        let task = try ResearchTask(identifier: "pain", steps: [
            Step(identifier: "painLevel", kind: .question(.scale(ScaleFormat(minimum: 0, maximum: 10, step: 1))),
                 title: "Pain", text: "How much does your knee hurt right now?"),
            Step(identifier: "painLocation", kind: .question(.text(TextFormat(maximumLength: 200))), title: "Where?"),
        ])
        let session = try TaskSession(task: task, environment: StudyKitEnvironment(
            now: { Date(timeIntervalSince1970: 1_772_700_000) }, makeUUID: { UUID() }, locale: Locale(identifier: "en")))
        let pageContext = PageContext(strings: strings, csrfToken: "k2hR0n7Qe9oYxq3VbW5zL1aF8cJtUiPm", formAction: "/runs/run",
                                      studyName: "Recover", themeTint: "#0a7d6f", allowsTypedSignature: true,
                                      assets: .linked(basePath: "/assets"))
        var stepSize = 0
        let stepRate = try measureOperationsPerSecond(seconds: secondsPerMeasurement) {
            stepSize = try stepPages.render(session: session, context: pageContext).utf8.count
        }
        return [
            BenchmarkRow(name: "home page, 7 task cards", value: homeRate, unit: "pages/s", note: "\(size) bytes of HTML"),
            BenchmarkRow(name: "survey step page (0-10 scale)", value: stepRate, unit: "pages/s", note: "\(stepSize) bytes of HTML"),
        ]
    }
}
