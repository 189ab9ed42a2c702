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
        let post = { (path: String) in TaskCard.Post(action: path, fields: ["day": "2026-03-05"]) }
        let cards = [
            TaskCard(title: "Knee exercises", instructions: "Ten straight-leg raises, ten heel slides and ten quad sets with your operated leg.",
                     timeText: "08:00 – 20:00", state: .toDo, body: .checklist([
                         TaskCard.EventControl(label: "08:00 · after breakfast", isDone: true, post: post("/tasks/exercises/40/undo")),
                         TaskCard.EventControl(label: "14:00 · after lunch", isDone: false, post: post("/tasks/exercises/41/done")),
                         TaskCard.EventControl(label: "20:00 · after dinner", isDone: false, post: nil),
                     ])),
            TaskCard(title: "Medication", instructions: "Take with food.", timeText: "08:30 – 13:30", state: .done, body: .grid([
                TaskCard.EventControl(label: "08:30", isDone: true, post: post("/tasks/medication/20/undo")),
                TaskCard.EventControl(label: "13:30", isDone: true, post: post("/tasks/medication/21/undo")),
            ])),
            TaskCard(title: "Daily pain check", instructions: "How much does your knee hurt today?", timeText: "Any time today",
                     state: .toDo, body: .start(url: "/tasks/pain/3", resumes: true)),
            TaskCard(title: "Weekly function survey", instructions: nil, timeText: "Any time today", state: .done,
                     body: .completed(timeText: "09:12", undoURL: "/tasks/weekly/0/withdraw?day=2026-03-05")),
            TaskCard(title: "Symptoms", instructions: "Log nausea or dizziness when you feel it.", timeText: "Any time today", state: .none,
                     body: .log(post: post("/tasks/symptoms/12/log"), entries: [
                         TaskCard.LogEntry(timeText: "10:04", delete: post("/tasks/symptoms/12/log/delete")),
                         TaskCard.LogEntry(timeText: "15:40", delete: post("/tasks/symptoms/12/log/delete")),
                     ])),
            TaskCard(title: "Water", instructions: nil, timeText: "Any time today", state: .toDo, body: .value(
                totalText: "1,200 ml", goalText: "2,000 ml", fraction: 0.6,
                entry: TaskCard.ValueEntry(post: post("/tasks/water/3/value"), units: "ml", minimum: 0, maximum: 2000),
                clear: post("/tasks/water/3/undo"))),
            TaskCard(title: "Walk", instructions: "A short walk outside.", timeText: "18:00", state: .upcoming, body: .toggle(isDone: false, post: nil)),
        ]
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        var days: [WeekCalendar.Day] = []
        for day in 1...7 {
            let ring: WeekCalendar.Ring = day > 5 ? .noEvents : .progress(Double(day) / 5)
            days.append(WeekCalendar.Day(weekday: weekdays[day - 1], number: String(day), fullDate: "\(weekdays[day - 1]), \(day) March",
                                         url: "/?day=2026-03-0\(day)", ring: ring, isSelected: day == 5, isToday: day == 5, isFuture: day > 5))
        }
        let week = WeekCalendar(days: days, previousURL: "/?day=2026-02-26", nextURL: "/?day=2026-03-12", todayURL: nil)
        let home = HomePage(dayTitle: "Thursday, 5 March 2026", week: week, onboardingRequired: false, cards: cards, notice: nil)
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
