import Foundation

/// A study chart's numbers for one participant's week or month: one value per day per series, as the care store
/// counts them; what the insights page draws and tabulates.
public struct ChartData: Hashable, Sendable {
    /// One series' days.
    public struct Series: Hashable, Sendable {
        /// The series as the study defines it.
        public var definition: StudyChart.Series
        /// One value per day of ``ChartData/days``; nil where there is no number (a mean over no values).
        public var values: [Double?]
    }

    /// The chart as the study defines it.
    public var chart: StudyChart
    /// The days, in order, in the participant's calendar.
    public var days: [DateInterval]
    /// The series, in the chart's order.
    public var series: [Series]
    /// The whole period.
    public var period: DateInterval
    /// A day in the period before, and one in the period after.
    public var previous: Date, next: Date
}
