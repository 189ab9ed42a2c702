import Foundation
import JSONDiagnostics

/// Reads `study.yaml`'s `reminders` and `quietHours`, every fault named with its path: a reminder of a task the study
/// does not have, of the onboarding, of a page other than `today`, of a task and a page at once, with no timing or two,
/// a page's reminder with a delay, a time that is not `HH:MM`, a delay out of range.
struct StudyReminderReader {
    static let reminderKeys = ["id", "task", "page", "at", "after", "before", "notMoreOftenThan", "onByDefault", "title", "text"]
    /// The pages a reminder may be of: the daily page.
    static let pages = ["today"]
    static let durationUnits: [(key: String, seconds: Int)] = [("minutes", 60), ("hours", 3600), ("days", 86_400)]
    /// The longest delay or lead a reminder may have: a week.
    static let longestOffset = 7 * 86_400

    static func read(_ value: JSONTree?, tasks: [StudyTaskDefinition], reader: inout DocumentReader) -> [StudyReminder] {
        guard value != nil, let list = reader.array(value, path: "reminders") else { return [] }
        var reminders: [StudyReminder] = []
        var seen: [String: Int] = [:]
        for (index, element) in list.enumerated() {
            let path = "reminders[\(index)]"
            guard let pairs = reader.object(element, path: path, known: reminderKeys, required: ["id", "title", "text"]) else { continue }
            func field(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
            let id = reader.identifier(field("id"), path: "\(path).id", index: index, seen: &seen, kind: "reminder", list: "reminders")
            // Of one task's events, or of the daily page as a whole.
            var subjectKnown = true
            var taskID: String?
            switch (field("task"), field("page")) {
            case (nil, nil):
                reader.report(path, "a reminder needs 'task' (a task whose events it reminds of) or 'page: today' (the daily page as a whole)")
                subjectKnown = false
            case (.some, .some):
                reader.report(path, "a reminder is of a task or of the daily page; this one has both 'task' and 'page'")
                subjectKnown = false
            case (nil, let page?):
                let name = reader.string(page, path: "\(path).page")
                if let name, !pages.contains(name) {
                    reader.report("\(path).page", "'\(name)' is not a page a reminder can be of (pages: \(pages.joined(separator: ", ")))")
                }
                subjectKnown = name.map(pages.contains) ?? false
                for key in ["after", "before"] where field(key) != nil {
                    reader.report("\(path).\(key)", "a reminder of the daily page is at a time of day ('at'); its events open and close at different times")
                }
            case (let task?, nil):
                taskID = reader.string(task, path: "\(path).task")
                subjectKnown = taskID != nil
            }
            if let taskID, !tasks.contains(where: { $0.id == taskID }) {
                let hint = JSONDiagnostics.closestKey(to: taskID, among: tasks.map(\.id)).map { "; did you mean '\($0)'?" } ?? ""
                reader.report("\(path).task", "'\(taskID)' is not a task of the study\(hint) (tasks: \(tasks.map(\.id).joined(separator: ", ")))")
            }
            let timings = ["at", "after", "before"].filter { field($0) != nil }
            var timing: StudyReminder.Timing?
            if timings.count != 1 {
                reader.report(path, timings.isEmpty
                    ? "a reminder needs one of 'at' (a time of day), 'after' (a delay after the event opens) or 'before' (a lead before it closes)"
                    : "a reminder has one timing; this one has \(timings.map { "'\($0)'" }.joined(separator: " and "))")
            } else if let text = field("at").flatMap({ reader.string($0, path: "\(path).at") }) {
                if let minute = QuietHours.minuteOfDay(text) { timing = .timeOfDay(minutes: minute) }
                else { reader.report("\(path).at", "'\(text)' is not a time of day as HH:MM (00:00 to 23:59)") }
            } else if let after = field("after") {
                timing = duration(after, path: "\(path).after", reader: &reader).map { .afterStart(seconds: $0) }
            } else if let before = field("before") {
                timing = duration(before, path: "\(path).before", reader: &reader).map { .beforeEnd(seconds: $0) }
            }
            let interval = field("notMoreOftenThan").flatMap { duration($0, path: "\(path).notMoreOftenThan", reader: &reader) }
            let onByDefault = field("onByDefault").flatMap { reader.bool($0, path: "\(path).onByDefault") } ?? false
            let title = reader.string(field("title"), path: "\(path).title")
            let text = reader.string(field("text"), path: "\(path).text")
            for (key, value) in [("title", title), ("text", text)] {
                guard let value else { continue }
                if let problem = Self.textProblem(value, limit: key == "title" ? 120 : 600) { reader.report("\(path).\(key)", problem) }
            }
            guard let id, seen[id] == index, subjectKnown, let timing, let title, let text,
                  taskID.map({ taskID in tasks.contains { $0.id == taskID } }) ?? timing.isTimeOfDay else { continue }
            reminders.append(StudyReminder(id: id, taskID: taskID, timing: timing, minimumInterval: interval, onByDefault: onByDefault,
                                           title: title, text: text))
        }
        return reminders
    }

    /// The study's `quietHours`, else ``QuietHours/standard``.
    static func readQuietHours(_ value: JSONTree?, reader: inout DocumentReader) -> QuietHours {
        guard let value, let pairs = reader.object(value, path: "quietHours", known: ["from", "to"], required: ["from", "to"]) else {
            return .standard
        }
        var minutes: [String: Int] = [:]
        for key in ["from", "to"] {
            guard let text = pairs.first(where: { $0.key == key }).flatMap({ reader.string($0.value, path: "quietHours.\(key)") }) else { continue }
            if let minute = QuietHours.minuteOfDay(text) { minutes[key] = minute }
            else { reader.report("quietHours.\(key)", "'\(text)' is not a time of day as HH:MM (00:00 to 23:59)") }
        }
        guard let from = minutes["from"], let to = minutes["to"] else { return .standard }
        if from == to { reader.report("quietHours", "quiet hours from \(QuietHours.text(minuteOfDay: from)) to the same time are none; leave 'quietHours' out for the default") }
        return QuietHours(from: from, to: to)
    }

    /// A message's text may not carry control characters (a mail header would break) or be longer than `limit`.
    static func textProblem(_ text: String, limit: Int) -> String? {
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
            return "has a control character; a reminder's text is plain text"
        }
        if text.unicodeScalars.contains(where: { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }) {
            return "has a bidirectional control character, which can make a message read other than it is"
        }
        if text.count > limit { return "is \(text.count) characters; a reminder's \(limit == 120 ? "title" : "text") may have \(limit)" }
        return nil
    }

    /// `{minutes: N}`, `{hours: N}` or `{days: N}`, one unit, as seconds from 1 minute to a week.
    private static func duration(_ value: JSONTree, path: String, reader: inout DocumentReader) -> Int? {
        guard let pairs = reader.object(value, path: path, known: durationUnits.map(\.key)) else { return nil }
        guard pairs.count == 1, let unit = durationUnits.first(where: { $0.key == pairs[0].key }) else {
            reader.report(path, "a duration is one of {minutes: N}, {hours: N} or {days: N}")
            return nil
        }
        guard let count = reader.integer(pairs[0].value, path: "\(path).\(unit.key)", in: 1...(longestOffset / unit.seconds)) else { return nil }
        return count * unit.seconds
    }
}
