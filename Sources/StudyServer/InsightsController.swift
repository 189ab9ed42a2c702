import Foundation
import Hummingbird
import Study
import StudyKitEnvironment
import StudyWeb

/// The insights page: the study's charts over the participant's week or month, as CareKit's insights tab shows them.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /insights`, `GET /insights?day=YYYY-MM-DD` | the charts of the period containing today, or that day |
struct InsightsController {
    /// What the insights route uses of the server besides a participant page's frame: the clock.
    protocol Service: ParticipantPageService {
        /// The clock, calendar and time zone the server runs on.
        var environment: StudyKitEnvironment { get }
    }

    let service: any Service

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/insights") { request, context in
            let participant = context.participant
            let calendar = service.workflow.calendar(for: participant)
            let now = service.environment.now()
            let date = try request.uri.queryParameters.get("day").map { try DailyPageBuilder.date(ofParameter: $0, in: calendar) } ?? now
            var charts: [InsightsPage.Chart] = []
            let studyCharts = service.study.localized(participant.language).charts
            for chart in studyCharts {
                charts.append(Self.chart(try await service.workflow.chart(chart, containing: date, for: participant), participant: participant,
                                         calendar: calendar))
            }
            let byMonth = !studyCharts.isEmpty && studyCharts.allSatisfy { $0.period == .month }
            let unit: Calendar.Component = byMonth ? .month : .weekOfYear
            let current = calendar.dateInterval(of: unit, for: date) ?? DateInterval(start: date, duration: 7 * 86_400)
            let url = { (day: Date) in "/insights?day=" + DailyPageBuilder.parameter(of: day, in: calendar) }
            let page = InsightsPage(charts: charts, previousURL: url(calendar.date(byAdding: unit, value: -1, to: current.start) ?? current.start),
                                    nextURL: url(current.end), todayURL: current.contains(now) ? nil : "/insights", stepsByMonth: byMonth)
            return StudyRouter.html(service.sitePages.insights(page, context: service.siteContext(language: participant.language,
                                                                                                 signedIn: context.signedIn)))
        }
    }

    /// A chart's numbers as the page shows them: days labelled in the participant's language, values formatted.
    static func chart(_ data: ChartData, participant: StudyParticipant, calendar: Calendar) -> InsightsPage.Chart {
        let locale = Locale(identifier: participant.language)
        let style = Date.FormatStyle(locale: locale, calendar: calendar, timeZone: participant.timeZone)
        let monthly = data.chart.period == .month
        let days = data.days.map { day in
            InsightsPage.Day(short: day.start.formatted(monthly ? style.day() : style.weekday(.abbreviated)),
                             full: day.start.formatted(style.weekday(.wide).day().month(.wide)))
        }
        let last = data.days.last?.start ?? data.period.start
        let period = monthly ? data.period.start.formatted(style.month(.wide).year())
            : "\(data.period.start.formatted(style.day().month(.abbreviated))) – \(last.formatted(style.day().month(.abbreviated).year()))"
        let series = data.series.map { series in
            InsightsPage.Series(legend: series.definition.legend, colour: series.definition.colour, values: series.values,
                                texts: series.values.map { value in
                                    value.map { $0.formatted(.number.locale(locale).precision(.fractionLength(0...1))) } ?? "–"
                                })
        }
        let kind: InsightsPage.Kind = switch data.chart.kind {
        case .bar: .bar
        case .line: .line
        case .scatter: .scatter
        }
        return InsightsPage.Chart(title: data.chart.title, kind: kind, period: period, days: days, series: series)
    }
}

extension StudyService: InsightsController.Service {}
