/// The insights page: the study's charts over the participant's week or month, each drawn as inline SVG with its
/// legend and the same numbers in a table, and links to the periods before and after.
///
/// ```swift
/// let chart = InsightsPage.Chart(title: "Exercise and pain", kind: .bar, period: "22–28 March",
///     days: [InsightsPage.Day(short: "Sun", full: "Sunday, 22 March")],
///     series: [InsightsPage.Series(legend: "Sessions", colour: "#C8472B", values: [2], texts: ["2"])])
/// let page = InsightsPage(charts: [chart], previousURL: "/insights?day=2027-03-15", nextURL: "/insights?day=2027-03-29",
///                         todayURL: nil, stepsByMonth: false)
/// ```
public struct InsightsPage: Sendable {
    /// How a chart's series are drawn.
    public enum Kind: Sendable {
        case bar, line, scatter
    }

    /// A day on a chart's axis.
    public struct Day: Sendable {
        /// The axis label ("Mon", "23").
        public var short: String
        /// The date in full, for the table ("Monday, 23 March").
        public var full: String

        /// Creates a day.
        public init(short: String, full: String) {
            self.short = short
            self.full = full
        }
    }

    /// A data series.
    public struct Series: Sendable {
        /// Its name in the legend and the table's header.
        public var legend: String
        /// Its colour, `#RRGGBB`.
        public var colour: String
        /// One number per day; nil where there is none.
        public var values: [Double?]
        /// The same numbers formatted in the participant's language ("4.5"), "–" where there is none.
        public var texts: [String]

        /// Creates a series.
        public init(legend: String, colour: String, values: [Double?], texts: [String]) {
            self.legend = legend
            self.colour = colour
            self.values = values
            self.texts = texts
        }
    }

    /// One chart.
    public struct Chart: Sendable {
        /// Its title.
        public var title: String
        /// How it is drawn.
        public var kind: Kind
        /// The period it shows, formatted ("22–28 March 2027").
        public var period: String
        /// Its days, in order.
        public var days: [Day]
        /// Its series, in legend order.
        public var series: [Series]

        /// Creates a chart.
        public init(title: String, kind: Kind, period: String, days: [Day], series: [Series]) {
            self.title = title
            self.kind = kind
            self.period = period
            self.days = days
            self.series = series
        }
    }

    /// The charts.
    public var charts: [Chart]
    /// The period before, and after.
    public var previousURL: String, nextURL: String
    /// The current period's page, when another is shown.
    public var todayURL: String?
    /// Whether the links step by month (every chart is monthly) rather than by week.
    public var stepsByMonth: Bool

    /// Creates an insights page.
    public init(charts: [Chart], previousURL: String, nextURL: String, todayURL: String?, stepsByMonth: Bool) {
        self.charts = charts
        self.previousURL = previousURL
        self.nextURL = nextURL
        self.todayURL = todayURL
        self.stepsByMonth = stepsByMonth
    }
}
