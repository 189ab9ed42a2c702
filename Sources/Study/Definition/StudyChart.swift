import Foundation

/// A chart of the insights page, as `study.yaml` defines it: CareKit's cartesian chart of data series over a week
/// or a month.
///
/// ```yaml
/// charts:
///   - id: recovery
///     title: Exercise and pain
///     kind: bar
///     period: week
///     series:
///       - {task: exercises, legend: Sessions done, colour: "#C8472B", aggregate: count}
///       - {task: pain, legend: Pain (0–10), colour: "#1F6FB2", aggregate: mean, kind: pain}
/// ```
public struct StudyChart: Hashable, Sendable, Identifiable {
    /// How the series are drawn.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Bars side by side for each day.
        case bar
        /// A line through each series' days.
        case line
        /// A dot for each series' day.
        case scatter
    }

    /// The days a chart spans: the participant's calendar week or month around the day shown.
    public enum Period: String, Hashable, Sendable, CaseIterable {
        case week, month
    }

    /// How a series turns a day's events into one number.
    public enum Aggregate: String, Hashable, Sendable, CaseIterable {
        /// How many of the day's events have an outcome.
        case count
        /// The sum of the day's values of the series' kind.
        case sum
        /// The mean of the day's values of the series' kind; no number on a day without one.
        case mean
        /// How complete the day's events are, in percent, as adherence counts them.
        case progress
    }

    /// One data series.
    public struct Series: Hashable, Sendable {
        /// The study task whose events it reads.
        public var taskID: String
        /// Its name in the legend.
        public var legend: String
        /// Its colour, `#RRGGBB`.
        public var colour: String
        /// How a day becomes a number.
        public var aggregate: Aggregate
        /// The outcome value kind `sum` and `mean` read; nil for every value.
        public var valueKind: String?

        /// Creates a series; see the properties.
        public init(taskID: String, legend: String, colour: String, aggregate: Aggregate, valueKind: String? = nil) {
            self.taskID = taskID
            self.legend = legend
            self.colour = colour
            self.aggregate = aggregate
            self.valueKind = valueKind
        }
    }

    /// The chart's identifier in the study; unique.
    public var id: String
    /// Its title.
    public var title: String
    /// How it is drawn.
    public var kind: Kind
    /// The days it spans.
    public var period: Period
    /// Its series, in legend order.
    public var series: [Series]

    /// Creates a chart; see the properties.
    public init(id: String, title: String, kind: Kind, period: Period, series: [Series]) {
        self.id = id
        self.title = title
        self.kind = kind
        self.period = period
        self.series = series
    }
}
