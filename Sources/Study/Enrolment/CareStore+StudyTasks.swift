import CareStore
import Foundation

extension CareStore {
    /// A participant's adherence per study task over `window`, as ``CareStore/adherenceByTask(taskQuery:window:calendar:includingAll:)``
    /// counts each task alone (tasks outside the rings too): each of `tasks` with a version in effect for them during
    /// the window, in the order of `tasks`, with its days in `calendar` (the participant's).
    public func adherenceByStudyTask(participant: String, tasks: [StudyTaskDefinition], window: DateInterval,
                                     calendar: Calendar) async throws -> [(task: StudyTaskDefinition, days: [DailyAdherence])] {
        var query = CareQuery()
        query.carePlanIDs = [StudyCareIdentifiers.carePlanID(participant: participant)]
        let byCareTask = try await adherenceByTask(taskQuery: query, window: window, calendar: calendar, includingAll: true)
        return tasks.compactMap { task in
            byCareTask[StudyCareIdentifiers.taskID(participant: participant, task: task.id)].map { (task, $0) }
        }
    }
}
