import CareStore
import Foundation
import StudyKitEnvironment
import Research

/// Turns a finished survey into outcome values on the event it was taken for, through the task's `outcome` mapping in
/// `study.yaml`, and records checklist tasks (no survey) as done.
///
/// ```swift
/// let mapper = SurveyOutcomeMapper(study: study, careStore: careStore, environment: .live)
/// let outcome = try await mapper.record(result: session.result, taskID: "pain", occurrence: 3,
///                                       participantID: participant.id, timeZone: participant.timeZone)
/// ```
///
/// The care store checks the event: an occurrence the task's schedule does not have, or an event that already has an
/// outcome, is refused with the store's error.
public struct SurveyOutcomeMapper: Sendable {
    /// The study whose task definitions say how answers map.
    public let study: StudyDefinition
    /// The store holding the participants' care plans.
    public let careStore: any CareStore
    /// The clock (the values' created date) and the UUID source for outcomes.
    public let environment: StudyKitEnvironment

    /// Creates a mapper for `study` over `careStore`.
    public init(study: StudyDefinition, careStore: any CareStore, environment: StudyKitEnvironment) {
        self.study = study
        self.careStore = careStore
        self.environment = environment
    }

    /// Adds the outcome of a completed survey run of study task `taskID` for event `occurrence` of the participant's care task.
    public func record(result: TaskResult, taskID: String, occurrence: Int, participantID: String, timeZone: TimeZone) async throws -> Outcome {
        let outcome = try await outcome(of: result, taskID: taskID, occurrence: occurrence, participantID: participantID, timeZone: timeZone)
        return try await careStore.addOutcomes([outcome])[0]
    }

    /// The outcome of a completed survey run, not yet stored: for a participant action that stores it with the run in
    /// one transaction.
    public func outcome(of result: TaskResult, taskID: String, occurrence: Int, participantID: String, timeZone: TimeZone) async throws -> Outcome {
        guard let definition = study.task(id: taskID) else { throw StudyOutcomeError.unknownTask(taskID) }
        guard let survey = study.survey(taskID: taskID) else { throw StudyOutcomeError.noSurvey(task: taskID) }
        let values = try Self.values(for: definition, survey: survey, result: result, recordedAt: environment.now())
        return try await outcome(values, taskID: taskID, occurrence: occurrence, participantID: participantID, timeZone: timeZone,
                                 userInfo: ["taskRunUUID": result.taskRunUUID.uuidString])
    }

    /// Adds the outcome of a task done from its card (a checklist task, or any task without an outcome mapping): one
    /// boolean `completed` value.
    public func recordCompletion(taskID: String, occurrence: Int, participantID: String, timeZone: TimeZone) async throws -> Outcome {
        guard study.task(id: taskID) != nil else { throw StudyOutcomeError.unknownTask(taskID) }
        var value = StudyTaskDefinition.completedValue
        value.createdDate = environment.now()
        let outcome = try await outcome([value], taskID: taskID, occurrence: occurrence, participantID: participantID, timeZone: timeZone,
                                        userInfo: [:])
        return try await careStore.addOutcomes([outcome])[0]
    }

    private func outcome(_ values: [OutcomeValue], taskID: String, occurrence: Int, participantID: String, timeZone: TimeZone,
                         userInfo: [String: String]) async throws -> Outcome {
        let task = try await Self.careTask(participantID: participantID, taskID: taskID, in: careStore)
        return Outcome(taskUUID: task.version.uuid, occurrenceIndex: occurrence, values: values, uuid: environment.makeUUID(),
                       timeZone: timeZone, source: study.identifier, userInfo: userInfo)
    }

    /// The outcome values of a survey result through the task's mapping: for each mapped question that was answered,
    /// its value (numbers as integers when whole, a choice as its value, several choices as several values, a time of
    /// day as `HH:MM` text), with the mapping's kind (default: the question) and units (default: the answer's unit).
    /// Skipped and "don't know" answers give no value. A task without a mapping gives one boolean `completed` value.
    public static func values(for task: StudyTaskDefinition, survey: ResearchTask, result: TaskResult,
                              recordedAt: Date) throws(StudyOutcomeError) -> [OutcomeValue] {
        guard result.identifier == survey.identifier else {
            throw .resultOfAnotherTask(task: task.id, expected: survey.identifier, found: result.identifier)
        }
        guard !task.outcome.isEmpty else {
            var value = StudyTaskDefinition.completedValue
            value.createdDate = recordedAt
            return [value]
        }
        var values: [OutcomeValue] = []
        for mapping in task.outcome {
            if mapping.isMeasure {
                // A measure an active step could not compute (no taps, a test stopped early) gives no value.
                guard let name = mapping.itemIdentifier, let measure = result.stepResult(mapping.stepIdentifier)?.activeResult?.measure(name),
                      let value = measure.value else { continue }
                values.append(OutcomeValue(.double(value), kind: mapping.kind ?? name, units: mapping.units ?? measure.units, createdDate: recordedAt))
                continue
            }
            let item = mapping.itemIdentifier ?? mapping.stepIdentifier
            guard let question = result.stepResult(mapping.stepIdentifier)?.questionResult(item), let answer = question.answer else { continue }
            let kind = mapping.kind ?? mapping.question
            let units = mapping.units ?? question.unit
            values += outcomeValues(of: answer).map { OutcomeValue($0, kind: kind, units: units, createdDate: recordedAt) }
        }
        return values
    }

    /// The typed values of one answer.
    static func outcomeValues(of answer: Answer) -> [OutcomeValue.Value] {
        let number = OutcomeValue.Value.number
        func choice(_ value: ChoiceValue) -> OutcomeValue.Value {
            switch value {
            case .string(let text): .text(text)
            case .integer(let integer): .integer(integer)
            case .decimal(let decimal): number(decimal)
            }
        }
        switch answer {
        case .boolean(let flag): return [.boolean(flag)]
        case .number(let decimal): return [number(NSDecimalNumber(decimal: decimal).doubleValue)]
        case .timeInterval(let seconds): return [.double(seconds)]
        case .text(let text): return [.text(text)]
        case .choices(let selections): return selections.map { choice($0.value) }
        case .components(let components): return components.map(choice)
        case .date(let date): return [.date(date.date)]
        case .timeOfDay(let time): return [.text(String(format: "%02d:%02d", time.hour, time.minute))]
        case .location, .file, .dontKnow: return []
        }
    }

    /// The newest version of the participant's care task for study task `taskID`.
    public static func careTask(participantID: String, taskID: String, in careStore: any CareStore) async throws -> CareTask {
        var query = CareQuery()
        query.ids = [StudyCareIdentifiers.taskID(participant: participantID, task: taskID)]
        guard let task = try await careStore.fetch(CareTask.self, query: query).first else {
            throw StudyOutcomeError.noCareTask(participant: participantID, task: taskID)
        }
        return task
    }
}
