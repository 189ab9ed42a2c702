/// Where a chart's marks go in its SVG: the value axis rounded up to a readable maximum, one band per day, and the
/// bars, lines and dots of each series inside it. Coordinates are in the SVG's user units (``width`` by ``height``).
struct ChartGeometry {
    static let width = 340.0, height = 190.0
    static let left = 30.0, right = 6.0, top = 10.0, bottom = 24.0
    static var plotWidth: Double { width - left - right }
    static var plotHeight: Double { height - top - bottom }

    let chart: InsightsPage.Chart
    /// The top of the value axis: the largest value rounded up to 1, 2 or 5 times a power of ten (at least 1).
    let maximum: Double

    init(_ chart: InsightsPage.Chart) {
        self.chart = chart
        maximum = Self.niceCeiling(chart.series.flatMap(\.values).compactMap { $0 }.max() ?? 0)
    }

    static func niceCeiling(_ value: Double) -> Double {
        guard value > 1, value.isFinite else { return 1 }
        var power = 1.0
        while power * 10 <= value { power *= 10 }
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= value } ?? 10 * power
    }

    var band: Double { Self.plotWidth / Double(max(chart.days.count, 1)) }

    func x(day: Int) -> Double { Self.left + band * (Double(day) + 0.5) }
    func y(_ value: Double) -> Double { Self.top + Self.plotHeight * (1 - min(max(value / maximum, 0), 1)) }

    /// Three grid lines with their labels: 0, half and the maximum.
    var ticks: [(y: Double, value: Double)] { [0, maximum / 2, maximum].map { (y($0), $0) } }

    /// The bars of series `index`: side by side within each day's band.
    func bars(of index: Int) -> [(x: Double, y: Double, width: Double, height: Double)] {
        let count = Double(chart.series.count), slot = band * 0.8 / count
        return chart.series[index].values.enumerated().compactMap { day, value in
            guard let value else { return nil }
            let top = y(value)
            return (Self.left + band * Double(day) + band * 0.1 + slot * Double(index), top, max(slot - 1, 1), Self.top + Self.plotHeight - top)
        }
    }

    /// The points of series `index` on days with a value.
    func points(of index: Int) -> [(x: Double, y: Double)] {
        chart.series[index].values.enumerated().compactMap { day, value in value.map { (x(day: day), y($0)) } }
    }

    /// Which days get an axis label: every day of a week, every seventh of a month (and the first).
    var labelledDays: [Int] {
        chart.days.count <= 7 ? Array(chart.days.indices) : Array(stride(from: 0, to: chart.days.count, by: 7))
    }

    /// A coordinate as the SVG writes it: one decimal at most.
    static func text(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
