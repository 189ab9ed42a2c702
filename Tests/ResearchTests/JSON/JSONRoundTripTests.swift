import Foundation
import Testing
@testable import Research

@Suite("JSON round trips")
struct JSONRoundTripTests {
    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let data = try ResearchJSON.encoder().encode(value)
        return try ResearchJSON.decoder().decode(T.self, from: data)
    }

    @Test func samplesCoverEveryFormatAndStepKind() {
        #expect(Set(Samples.formats.map(\.type)) == Set(AnswerFormatType.allCases))
        #expect(Set(Samples.steps.map(\.kind.type)) == Set(StepType.allCases))
        #expect(Set(Samples.answers.keys) == Set(AnswerFormatType.allCases))
    }

    @Test(arguments: Samples.formats)
    func everyAnswerFormat(_ format: AnswerFormat) throws {
        #expect(try roundTrip(format) == format)
    }

    /// The key table the task validator checks for typos comes from each family's file: a key a format writes but
    /// does not list would be refused as unknown when the format is read back from a task file.
    @Test(arguments: Samples.formats)
    func everyKeyAFormatWritesIsOneItsFamilyLists(_ format: AnswerFormat) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: ResearchJSON.encoder().encode(format)) as? [String: Any])
        #expect(Set(object.keys).subtracting(["type"]).isSubset(of: format.type.jsonKeys), "\(format.type): \(object.keys.sorted())")
    }

    @Test(arguments: Samples.steps)
    func everyStepKind(_ step: Step) throws {
        #expect(try roundTrip(step) == step)
    }

    @Test(arguments: Samples.resultItems)
    func everyResultItem(_ item: ResultItem) throws {
        #expect(try roundTrip(item) == item)
    }

    @Test func taskAndTaskResult() throws {
        let task = try ResearchTask(identifier: "all", title: "Everything", steps: Samples.steps, navigationRules: [
            "stairs": .conditional([ConditionalDestination(if: .comparison(Build.ref("stairs"), .equal, .boolean(true)), goTo: .step("done"))], otherwise: .step("week")),
            "week": .direct(.end),
        ], skipRules: ["list": .not(.answered(Build.ref("week", "interest")))])
        #expect(try roundTrip(task) == task)

        let result = TaskResult(identifier: "all", taskRunUUID: UUID(), startDate: Date(timeIntervalSince1970: 1_774_771_200),
                                endDate: Date(timeIntervalSince1970: 1_774_771_260.5), device: "Firefox", outputDirectory: "/tmp/run",
                                stepResults: [StepResult(identifier: "s", startDate: Date(timeIntervalSince1970: 1_774_771_200),
                                                         endDate: Date(timeIntervalSince1970: 1_774_771_201), results: Samples.resultItems,
                                                         skipped: false, isPrevious: true),
                                              StepResult(identifier: "t", startDate: Date(timeIntervalSince1970: 1_774_771_201),
                                                         endDate: Date(timeIntervalSince1970: 1_774_771_202), skipped: true)])
        #expect(try roundTrip(result) == result)
    }

    @Test func answerKindsRoundTripSelfDescribing() throws {
        for answer in Array(Samples.answers.values) + [.dontKnow] {
            #expect(try roundTrip(answer) == answer)
        }
    }

    /// The documented shapes: bare values typed by the question's format.
    @Test func questionResultJSONIsStable() throws {
        func json(_ result: QuestionResult) throws -> String {
            String(decoding: try ResearchJSON.encoder(pretty: false).encode(result), as: UTF8.self)
        }
        #expect(try json(QuestionResult(identifier: "pain", type: .scale, answer: .number(7)))
                == #"{"answer":7,"identifier":"pain","type":"scale"}"#)
        #expect(try json(QuestionResult(identifier: "w", type: .numeric, answer: .number(Decimal(string: "72.5")!), unit: "kg"))
                == #"{"answer":72.5,"identifier":"w","type":"numeric","unit":"kg"}"#)
        #expect(try json(QuestionResult(identifier: "c", type: .textChoice, answer: .choices([ChoiceSelection(1), ChoiceSelection("other", text: "Knee")])))
                == #"{"answer":[1,{"text":"Knee","value":"other"}],"identifier":"c","type":"textChoice"}"#)
        #expect(try json(QuestionResult(identifier: "d", type: .date, answer: Samples.answers[.date]))
                == #"{"answer":{"calendar":"gregorian","date":"2026-03-29","timeZone":"Asia/Tokyo"},"identifier":"d","type":"date"}"#)
        #expect(try json(QuestionResult(identifier: "dt", type: .dateTime, answer: Samples.answers[.dateTime]))
                == #"{"answer":{"calendar":"gregorian","dateTime":"2026-03-29T10:00:00+02:00","timeZone":"Europe/Berlin"},"identifier":"dt","type":"dateTime"}"#)
        #expect(try json(QuestionResult(identifier: "t", type: .timeOfDay, answer: .timeOfDay(TimeOfDay(hour: 8, minute: 5))))
                == #"{"answer":"08:05","identifier":"t","type":"timeOfDay"}"#)
        #expect(try json(QuestionResult(identifier: "u", type: .numeric, answer: .dontKnow))
                == #"{"dontKnow":true,"identifier":"u","type":"numeric"}"#)
        #expect(try json(QuestionResult(identifier: "e", type: .scale, answer: nil)) == #"{"identifier":"e","type":"scale"}"#)
    }

    @Test func dateFormatBoundsAreWrittenAsDaysAndDateTimeBoundsWithTime() throws {
        let bounds = DateFormat(minimum: Date(timeIntervalSince1970: 1_767_225_600), maximum: Date(timeIntervalSince1970: 1_798_761_600))
        let day = String(decoding: try ResearchJSON.encoder(pretty: false).encode(AnswerFormat.date(bounds)), as: UTF8.self)
        #expect(day == #"{"maximum":"2027-01-01","minimum":"2026-01-01","type":"date"}"#)
        let time = String(decoding: try ResearchJSON.encoder(pretty: false).encode(AnswerFormat.dateTime(bounds)), as: UTF8.self)
        #expect(time == #"{"maximum":"2027-01-01T00:00:00Z","minimum":"2026-01-01T00:00:00Z","type":"dateTime"}"#)
    }

    @Test func dateAnswerKeepsItsDayInAFarZone() throws {
        // 2026-03-29 in Tokyo starts at 2026-03-28T15:00:00Z.
        let answer = try #require(DateAnswer(year: 2026, month: 3, day: 29, timeZone: Samples.tokyo))
        #expect(ISO8601.string(from: answer.date) == "2026-03-28T15:00:00Z")
        #expect(try roundTrip(answer) == answer)
        #expect(DateAnswer(year: 2026, month: 2, day: 30, timeZone: Samples.tokyo) == nil)
    }

    @Test func aJapaneseCalendarDayIsWrittenAsAnISODayAndReadBack() throws {
        var answer = try #require(DateAnswer(year: 1990, month: 3, day: 3, timeZone: Samples.tokyo))
        answer.calendar = .japanese
        let json = String(decoding: try ResearchJSON.encoder(pretty: false).encode(answer), as: UTF8.self)
        #expect(json == #"{"calendar":"japanese","date":"1990-03-03","timeZone":"Asia/Tokyo"}"#)
        #expect(try roundTrip(answer) == answer)
    }

    @Test func numericChoiceValuesAreEqualByValue() throws {
        #expect(ChoiceValue.integer(2) == .decimal(2.0))
        #expect(Set<ChoiceValue>([.integer(2), .decimal(2.0), .string("2")]).count == 2)
        #expect(try roundTrip(ChoiceValue.decimal(2.0)) == .decimal(2.0))
    }

    @Test func malformedValuesAreRejected() {
        let decoder = ResearchJSON.decoder()
        #expect(throws: DecodingError.self) { try decoder.decode(TimeOfDay.self, from: Data(#""25:00""#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(DateAnswer.self, from: Data(#"{"date":"2026-13-01","timeZone":"UTC"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(DateAnswer.self, from: Data(#"{"date":"2026-01-01","timeZone":"Mars/Olympus"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Step.self, from: Data(#"{"type":"poll","identifier":"x"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(NavigationRule.self, from: Data(#"{}"#.utf8)) }
    }
}
