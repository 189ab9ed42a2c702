import Foundation

/// One measured figure.
struct BenchmarkRow {
    var name: String
    var value: Double
    var unit: String
    var note: String = ""
}

/// Prints benchmark rows as an aligned table.
enum BenchmarkTable {
    static func print(_ rows: [BenchmarkRow]) {
        let nameWidth = max(9, rows.map(\.name.count).max() ?? 0)
        let values = rows.map { format($0.value) }
        let valueWidth = max(5, values.map(\.count).max() ?? 0)
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let space = String(repeating: " ", count: max(0, width - text.count))
            return left ? space + text : text + space
        }
        Swift.print("\(pad("benchmark", nameWidth))  \(pad("value", valueWidth, left: true))  unit")
        Swift.print(String(repeating: "-", count: nameWidth + valueWidth + 12))
        for (row, value) in zip(rows, values) {
            Swift.print("\(pad(row.name, nameWidth))  \(pad(value, valueWidth, left: true))  \(row.unit)\(row.note.isEmpty ? "" : "  (\(row.note))")")
        }
    }

    private static func format(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(format: "%.2f", value)
    }
}

/// Runs `body` repeatedly for about `seconds` and returns operations per second.
func measureOperationsPerSecond(seconds: Double, _ body: () throws -> Void) rethrows -> Double {
    try body() // warm-up
    let clock = ContinuousClock()
    let budget = Duration.milliseconds(Int64(seconds * 1000))
    var count = 0
    let start = clock.now
    var elapsed = Duration.zero
    repeat {
        try body()
        count += 1
        elapsed = clock.now - start
    } while elapsed < budget
    let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(count) / secondsElapsed
}
