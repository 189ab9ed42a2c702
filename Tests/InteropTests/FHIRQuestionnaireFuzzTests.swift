import Foundation
import Interop
import Research
import StudyKitEnvironment
import Testing

/// Random answer sets through every Questionnaire a study may carry (the bundled studies' and HL7's examples): every
/// run must reach its end within a bounded number of moves, with its scores calculated, whatever was answered,
/// left empty or typed (control and bidirectional characters included). A participant is never stranded.
@Suite("FHIR Questionnaires: random answer sets")
struct FHIRQuestionnaireFuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let bundled = ["examples/studies/recover/surveys/phq9.json", "tests/browser/studies/family-history/family-history.json"]
    static let fixtures = ["sdc-phq9-questionnaire.json", "sdc-enablewhen.json", "sdc-all-data-types.json"]

    static let texts = ["", "ok", "a\u{0}b", "\u{202E}evil\u{202C}", "line\nbreak", "😀 ünïcödé", String(repeating: "x", count: 300), "<script>"]

    /// A random answer the format may take (or may refuse: the session decides); nil to leave the question empty.
    static func answer(for format: AnswerFormat, _ random: inout SeededRandomNumberGenerator) -> Answer? {
        if Int.random(in: 0..<6, using: &random) == 0 { return nil }
        switch format {
        case .boolean: return .boolean(Bool.random(using: &random))
        case .textChoice(let choices):
            let count = choices.style == .multiple ? Int.random(in: 1...max(1, choices.choices.count), using: &random) : 1
            let picked = choices.choices.shuffled(using: &random).prefix(count)
            return .choices(picked.map { ChoiceSelection($0.value, text: $0.other == nil ? nil : texts.randomElement(using: &random)) })
        case .valuePicker(let picker):
            return picker.choices.randomElement(using: &random).map { .choices([ChoiceSelection($0.value)]) }
        case .numeric(let numeric):
            let low = numeric.minimum ?? -1000, high = numeric.maximum ?? 1000
            let value = low + (high - low) * Decimal(Double.random(in: 0...1, using: &random))
            var rounded = Decimal()
            var input = value
            NSDecimalRound(&rounded, &input, numeric.style == .integer ? 0 : 2, .plain)
            return .number(rounded)
        case .scale(let scale):
            return .number(Decimal(Int.random(in: scale.minimum...scale.maximum, using: &random)))
        case .date(let date), .dateTime(let date):
            let low = date.minimum ?? Date(timeIntervalSince1970: 0), high = date.maximum ?? Date(timeIntervalSince1970: 2_000_000_000)
            let instant = Date(timeIntervalSince1970: Double.random(in: low.timeIntervalSince1970...high.timeIntervalSince1970, using: &random))
            guard case .date = format else { return .date(DateAnswer(date: instant, timeZone: TimeZone(identifier: "Asia/Tokyo")!, includesTime: true)) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return .date(DateAnswer(date: calendar.startOfDay(for: instant), timeZone: calendar.timeZone, includesTime: false))
        case .timeOfDay:
            return .timeOfDay(TimeOfDay(hour: Int.random(in: 0...23, using: &random), minute: Int.random(in: 0...59, using: &random)))
        case .text:
            return .text(texts.randomElement(using: &random)!)
        default:
            return nil
        }
    }

    /// One run with random answers; returns why it did not reach its end, or nil, and the run's result.
    static func run(_ task: ResearchTask, calculator: FHIRPathTaskCalculator?, seed: UInt64,
                    scoresMustCalculate: Bool) throws -> (failure: String?, result: TaskResult) {
        var session: TaskSession?
        let failure = try run(task, calculator: calculator, seed: seed, scoresMustCalculate: scoresMustCalculate, session: &session)
        return (failure, session!.result)
    }

    private static func run(_ task: ResearchTask, calculator: FHIRPathTaskCalculator?, seed: UInt64, scoresMustCalculate: Bool,
                            session kept: inout TaskSession?) throws -> String? {
        var random = SeededRandomNumberGenerator(seed: seed)
        var clock = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_795_000_000) }, makeUUID: { UUID() })
        clock.timeZone = TimeZone(identifier: "Pacific/Auckland")!
        var session = try TaskSession(task: task, environment: clock, calculator: calculator)
        defer { kept = session }
        for _ in 0..<500 {
            guard let step = session.currentStep else { return nil }
            for question in step.questions where !step.calculatedItems.contains(where: { $0.identifier == question.identifier }) {
                // A refused answer (out of range, not matching a pattern) leaves the question empty, as in the web form.
                try? session.setAnswer(answer(for: question.format, &random), for: question.identifier)
            }
            if scoresMustCalculate, let failure = session.calculationErrors.values.first { return "seed \(seed): \(failure)" }
            var missing: [String] = []
            do {
                try session.goForward()
            } catch {
                guard case .missingAnswers(let items) = error else { return "seed \(seed): \(error)" }
                missing = items
            }
            if !missing.isEmpty {
                let items = missing
                // Answer what is still missing with the first value the format takes, as a participant would.
                for item in items {
                    guard let format = step.answerFormat(forItem: item) else { continue }
                    for _ in 0..<20 where session.answer(for: item) == nil {
                        var retry = SeededRandomNumberGenerator(seed: random.next())
                        try? session.setAnswer(answer(for: format, &retry), for: item)
                    }
                }
                if !session.canGoForward {
                    if step.isOptional { try session.skip() } else { return "seed \(seed): stuck on \(step.identifier) missing \(items)" }
                }
            }
        }
        return "seed \(seed): still running after 500 moves"
    }

    /// Runs `data`'s task 150 times with random answers; every run must end, and what it answered must make a
    /// QuestionnaireResponse that reads back to the same response.
    static func check(_ data: Data, name: String, scoresMustCalculate: Bool) throws {
        let questionnaire = try FHIRQuestionnaire(data)
        let calculator = try FHIRPathTaskCalculator(questionnaires: [data])
        let zone = TimeZone(identifier: "Pacific/Auckland")!
        var failures: [String] = []
        for seed in 1...150 as ClosedRange<UInt64> {
            let (failure, result) = try run(questionnaire.task, calculator: calculator, seed: seed, scoresMustCalculate: scoresMustCalculate)
            if let failure {
                failures.append(failure)
                continue
            }
            do {
                let response = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(for: result, status: .completed, timeZone: zone)
                let read = try FHIRQuestionnaireResponseReader(questionnaire: questionnaire).read(response, timeZone: zone, fallbackRunUUID: UUID())
                let again = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(for: read.result, status: .completed, timeZone: zone)
                if again != response {
                    let first = String(decoding: response, as: UTF8.self), second = String(decoding: again, as: UTF8.self)
                    let at = zip(first, second).prefix { $0 == $1 }.count
                    failures.append("seed \(seed): the response read back differs at \(at): \(first.dropFirst(max(0, at - 120)).prefix(240)) | \(second.dropFirst(max(0, at - 120)).prefix(240))")
                }
            } catch {
                failures.append("seed \(seed): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(name): \(failures.prefix(5))")
    }

    @Test func everyRunOfNestedRepeatingGroupsEndsAndReadsBack() throws {
        try Self.check(Data(FHIRRepeatingGroupTests.familyJSON.utf8), name: "family", scoresMustCalculate: false)
    }

    @Test(arguments: bundled)
    func everyRunOfABundledQuestionnaireEndsWithItsScore(path: String) throws {
        try Self.check(Data(contentsOf: Self.root.appendingPathComponent(path)), name: path, scoresMustCalculate: true)
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent), arguments: fixtures)
    func everyRunOfHL7sExamplesEnds(name: String) throws {
        try Self.check(Data(contentsOf: HL7Fixtures.folder.appendingPathComponent(name)), name: name, scoresMustCalculate: name.contains("phq9"))
    }
}
