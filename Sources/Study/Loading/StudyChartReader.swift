import Foundation
import JSONDiagnostics

/// Reads `study.yaml`'s `charts`: each chart's id, title, kind, period and series, every fault named with its path.
enum StudyChartReader {
    static let chartKeys = ["id", "title", "kind", "period", "series"]
    static let seriesKeys = ["task", "legend", "colour", "aggregate", "kind"]

    static func read(_ value: JSONTree?, tasks: [StudyTaskDefinition], reader: inout DocumentReader) -> [StudyChart] {
        guard value != nil, let list = reader.array(value, path: "charts") else { return [] }
        var charts: [StudyChart] = []
        var seen: [String: Int] = [:]
        for (index, element) in list.enumerated() {
            let path = "charts[\(index)]"
            guard let pairs = reader.object(element, path: path, known: chartKeys, required: ["id", "title", "series"]) else { continue }
            func field(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
            let id = reader.identifier(field("id"), path: "\(path).id", index: index, seen: &seen, kind: "chart", list: "charts")
            let title = reader.string(field("title"), path: "\(path).title")
            let kind = field("kind") == nil ? StudyChart.Kind.bar
                : reader.choice(field("kind"), path: "\(path).kind", allowed: StudyChart.Kind.allCases.map(\.rawValue)).flatMap(StudyChart.Kind.init)
            let period = field("period") == nil ? StudyChart.Period.week
                : reader.choice(field("period"), path: "\(path).period", allowed: StudyChart.Period.allCases.map(\.rawValue)).flatMap(StudyChart.Period.init)
            var series: [StudyChart.Series] = []
            if let entries = reader.array(field("series"), path: "\(path).series") {
                if entries.isEmpty { reader.report("\(path).series", "a chart needs at least one series") }
                for (seriesIndex, entry) in entries.enumerated() {
                    if let one = readSeries(entry, path: "\(path).series[\(seriesIndex)]", tasks: tasks, reader: &reader) { series.append(one) }
                }
            }
            guard let id, let title, let kind, let period, !series.isEmpty else { continue }
            charts.append(StudyChart(id: id, title: title, kind: kind, period: period, series: series))
        }
        return charts
    }

    private static func readSeries(_ value: JSONTree, path: String, tasks: [StudyTaskDefinition], reader: inout DocumentReader) -> StudyChart.Series? {
        guard let pairs = reader.object(value, path: path, known: seriesKeys, required: ["task", "legend", "aggregate"]) else { return nil }
        func field(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
        let taskID = reader.string(field("task"), path: "\(path).task")
        if let taskID, !tasks.contains(where: { $0.id == taskID }) {
            let hint = JSONDiagnostics.closestKey(to: taskID, among: tasks.map(\.id)).map { "; did you mean '\($0)'?" } ?? ""
            reader.report("\(path).task", "no task has the id '\(taskID)'\(hint)")
            return nil
        }
        let legend = reader.string(field("legend"), path: "\(path).legend")
        let colour = field("colour") == nil ? StudyTheme.defaultTint : reader.string(field("colour"), path: "\(path).colour")
        if let colour, !StudyTheme.isHexColour(colour) {
            reader.report("\(path).colour", "'\(colour)' is not a colour written #RRGGBB")
            return nil
        }
        let aggregate = reader.choice(field("aggregate"), path: "\(path).aggregate", allowed: StudyChart.Aggregate.allCases.map(\.rawValue))
            .flatMap(StudyChart.Aggregate.init)
        let kind = reader.string(field("kind"), path: "\(path).kind")
        if kind != nil, aggregate == .count || aggregate == .progress {
            reader.report("\(path).kind", "'\(aggregate?.rawValue ?? "")' counts events, not values; 'kind' goes with sum or mean")
            return nil
        }
        guard let taskID, let legend, let colour, let aggregate else { return nil }
        return StudyChart.Series(taskID: taskID, legend: legend, colour: colour.uppercased(), aggregate: aggregate, valueKind: kind)
    }
}
