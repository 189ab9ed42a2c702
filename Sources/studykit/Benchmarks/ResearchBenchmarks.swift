import Foundation
import StudyKitEnvironment
import Research

/// Benchmarks of the Research engine: reading a large task, and running it end to end.
struct ResearchBenchmarks {
    var secondsPerMeasurement: Double
    static let stepCount = 500

    func run() throws -> [BenchmarkRow] {
        let task = try Self.largeTask(steps: Self.stepCount)
        let json = try ResearchJSON.encoder(pretty: false).encode(task)
        let answers = Self.answers(for: task)

        let decodeRate = try measureOperationsPerSecond(seconds: secondsPerMeasurement) {
            let decoded = try TaskValidator.load(json)
            precondition(decoded.steps.count == Self.stepCount)
        }
        let environment = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_780_000_000) }, makeUUID: { UUID() })
        let sessionRate = try measureOperationsPerSecond(seconds: secondsPerMeasurement) {
            var session = try TaskSession(task: task, environment: environment)
            while let step = session.currentStep {
                if let answer = answers[step.identifier] {
                    for (item, value) in answer { try session.setAnswer(value, for: item) }
                }
                try session.goForward()
            }
            precondition(session.finishReason == .completed && session.result.stepResults.count == Self.stepCount)
        }
        return [
            BenchmarkRow(name: "decode + validate \(Self.stepCount)-step task", value: decodeRate, unit: "ops/s",
                         note: "\(json.count / 1024) KiB of JSON"),
            BenchmarkRow(name: "full \(Self.stepCount)-step session with answers", value: sessionRate, unit: "ops/s",
                         note: "answer, validate, navigate, build result"),
        ]
    }

    /// A navigable task that mixes question steps of several formats, forms, instructions, and a
    /// conditional rule and a skip rule every 25 steps (both keep the linear path).
    static func largeTask(steps count: Int) throws -> ResearchTask {
        var steps: [Step] = []
        var rules: [String: NavigationRule] = [:]
        var skips: [String: Condition] = [:]
        let choices = (0..<4).map { TextChoice(text: "Choice \($0)", value: .integer($0), detailText: "Detail \($0)") }
        for index in 0..<count {
            let id = "s\(index)"
            let kind: StepKind
            switch index % 8 {
            case 0: kind = .instruction
            case 1: kind = .question(.scale(ScaleFormat(minimum: 0, maximum: 10, step: 1)))
            case 2: kind = .question(.textChoice(TextChoiceFormat(style: .single, choices: choices)))
            case 3: kind = .question(.numeric(NumericFormat(style: .decimal, unit: "kg", minimum: 0, maximum: 500, maximumFractionDigits: 1)))
            case 4: kind = .question(.boolean(BooleanFormat()))
            case 5: kind = .question(.text(TextFormat(maximumLength: 200, validationPattern: "[A-Za-z ]+", invalidMessage: "Letters only.")))
            case 6: kind = .form(FormContent(items: (0..<3).map {
                FormItem(identifier: "i\($0)", text: "Item \($0)", answerFormat: .textChoice(TextChoiceFormat(style: .multiple, choices: choices)))
            }))
            default: kind = .question(.date(DateFormat(minimum: Date(timeIntervalSince1970: 0))))
            }
            steps.append(Step(identifier: id, kind: kind, title: "Step \(index)", text: "Question number \(index)?"))
            if index % 25 == 10 {
                rules[id] = .conditional([ConditionalDestination(if: .comparison(AnswerReference(step: "s9"), .greater, .number(100)),
                                                                 goTo: .end)])
                skips["s\(index + 1)"] = .and([.answered(AnswerReference(step: "s1")), .comparison(AnswerReference(step: "s1"), .less, .number(0))])
            }
        }
        return try ResearchTask(identifier: "bench", title: "Benchmark task", steps: steps, navigationRules: rules, skipRules: skips)
    }

    /// A valid answer for every question of the task, by step and item.
    static func answers(for task: ResearchTask) -> [String: [String: Answer]] {
        var result: [String: [String: Answer]] = [:]
        for step in task.steps {
            for question in step.questions {
                let answer: Answer
                switch question.format {
                case .scale: answer = .number(7)
                case .textChoice(let f) where f.style == .single: answer = .choices([ChoiceSelection(.integer(2))])
                case .textChoice: answer = .choices([ChoiceSelection(.integer(1)), ChoiceSelection(.integer(3))])
                case .numeric: answer = .number(Decimal(string: "72.5")!)
                case .boolean: answer = .boolean(true)
                case .text: answer = .text("Some words here")
                default: answer = .date(DateAnswer(year: 2026, month: 3, day: 29, timeZone: .gmt)!)
                }
                result[step.identifier, default: [:]][question.identifier] = answer
            }
        }
        return result
    }
}
