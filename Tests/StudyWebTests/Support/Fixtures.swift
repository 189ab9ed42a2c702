import Foundation
import StudyKitEnvironment
import Research
import Testing
@testable import StudyWeb

/// The example task, a fixed clock and zone, page contexts, and helpers that post forms the way a browser does.
enum Fixtures {
    /// The package folder: this file is `Tests/StudyWebTests/Support/Fixtures.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let csrf = "tok-3f9a"

    static func everyFormat() throws -> ResearchTask {
        try TaskValidator.load(Data(contentsOf: packageRoot.appendingPathComponent("examples/every-format.json")))
    }

    /// 2026-03-29T08:00:00Z, in Tokyo, with the POSIX locale (metric units, `.` decimals).
    static func environment(locale: Locale = Locale(identifier: "en_US_POSIX"),
                            timeZone: TimeZone = TimeZone(identifier: "Asia/Tokyo")!) -> StudyKitEnvironment {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_774_771_200) },
                                  makeUUID: { UUID(uuidString: "00000000-0000-0000-0000-000000000001")! },
                                  calendar: calendar, locale: locale)
    }

    static func session(_ task: ResearchTask? = nil, locale: Locale = Locale(identifier: "en_US_POSIX")) throws -> TaskSession {
        try TaskSession(task: task ?? everyFormat(), environment: environment(locale: locale))
    }

    static func context(_ language: String = "en", typedSignature: Bool = false, assets: AssetDelivery = .inline) -> PageContext {
        PageContext(strings: WebStrings(language: language), csrfToken: csrf, formAction: "/runs/1/step", studyName: "Recover",
                    themeTint: "#0a7d6f", allowsTypedSignature: typedSignature, assets: assets)
    }

    static func render(_ session: TaskSession, _ language: String = "en", errors: [String: FieldProblem] = [:],
                       submitted: StepSubmission? = nil, typedSignature: Bool = false) throws -> String {
        try StepPageRenderer().render(session: session, context: context(language, typedSignature: typedSignature),
                                      errors: errors, submitted: submitted)
    }

    /// The form a browser would post from the current step's page.
    static func form(_ session: TaskSession, _ action: String, _ fields: [String: [String]] = [:]) -> [String: [String]] {
        var form = fields
        form["_csrf"] = [csrf]
        form["_step"] = [session.currentStep?.identifier ?? ""]
        form["action"] = [action]
        return form
    }

    /// Posts `fields` with `action` from the current step's page and applies it.
    @discardableResult
    static func post(_ session: inout TaskSession, _ action: String = "next", _ fields: [String: [String]] = [:],
                     typedSignature: Bool = false) throws -> StepSubmissionResult {
        try StepSubmission(form: form(session, action, fields)).apply(to: &session, allowsTypedSignature: typedSignature)
    }

    static let strokes = #"{"width":300,"height":100,"strokes":[[{"x":10,"y":50,"t":0},{"x":60,"y":40,"t":16.5},{"x":120,"y":70,"t":33}]]}"#

    /// Moves through the example task by posting forms until `identifier` is the current step.
    static func walk(_ session: inout TaskSession, to identifier: String) throws {
        while let step = session.currentStep, step.identifier != identifier { try advance(&session) }
    }

    /// Leaves the current step of the example task by posting its form: skips optional questions, answers the
    /// required ones, and moves on from everything else.
    static func advance(_ session: inout TaskSession) throws {
        guard let step = session.currentStep else { return }
        if session.canSkip, !step.questions.isEmpty || step.kind.type == .webContent || step.kind.type == .requestPermissions {
            try post(&session, "skip")
        } else if step.identifier == "signature" {
            try post(&session, "next", ["signature": [strokes]])
        } else if step.identifier == "pain" {
            try post(&session, "next", ["q0": ["4"]])
        } else if step.identifier == "studyCode" {
            try post(&session, "next", ["q0": ["KNE-0420"]])
        } else {
            let result = try post(&session, "next")
            try #require(result.errors.isEmpty, "step \(step.identifier): \(result.errors)")
        }
    }
}

/// Simple structural checks of a rendered page: enough to catch broken references and unbalanced markup.
enum PageChecks {
    static func matches(_ pattern: String, in html: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap { match in
            Range(match.range(at: 1), in: html).map { String(html[$0]) }
        }
    }

    /// Problems found in a step page `html`: those of any page, and a post form with the CSRF and step fields.
    static func problems(in html: String) -> [String] {
        var problems = pageProblems(in: html)
        if !html.contains("<input type=\"hidden\" name=\"_csrf\" value=\"\(Fixtures.csrf)\">") { problems.append("no CSRF field") }
        if matches(#"<input type="hidden" name="_step" value="([^"]+)">"#, in: html).isEmpty { problems.append("no step field") }
        if !html.contains("<form method=\"post\"") { problems.append("no post form") }
        return problems
    }

    /// Problems found in any participant page `html`; empty when the page passes.
    static func pageProblems(in html: String) -> [String] {
        var problems: [String] = []
        if !html.hasPrefix("<!doctype html>") { problems.append("no doctype") }
        if !html.contains("<meta name=\"viewport\"") { problems.append("no viewport meta") }
        if matches(#"<html lang="([^"]+)""#, in: html).isEmpty { problems.append("no lang") }
        if matches(#"<title>([^<]+)</title>"#, in: html).isEmpty { problems.append("no title") }
        if matches(#"(<main id="main">)"#, in: html).count != 1 { problems.append("not one <main id=\"main\">") }
        if matches(#"(<h1[\s>])"#, in: html).count != 1 { problems.append("not one <h1>") }
        let ids = matches(#"\sid="([^"]+)""#, in: html)
        let idSet = Set(ids)
        if ids.count != idSet.count { problems.append("duplicate ids: \(ids.filter { id in ids.filter { $0 == id }.count > 1 })") }
        for target in matches(#"<label[^>]*\sfor="([^"]+)""#, in: html) where !idSet.contains(target) {
            problems.append("label for missing id \(target)")
        }
        for list in matches(#"aria-describedby="([^"]+)""#, in: html) {
            for id in list.split(separator: " ") where !idSet.contains(String(id)) { problems.append("aria-describedby names missing id \(id)") }
        }
        for target in matches(#"aria-labelledby="([^"]+)""#, in: html) where !idSet.contains(target) {
            problems.append("aria-labelledby names missing id \(target)")
        }
        for target in matches(##"<a [^>]*href="#([^"]+)""##, in: html) where !idSet.contains(target) {
            problems.append("link to missing id \(target)")
        }
        let labelled = Set(matches(#"<label[^>]*\sfor="([^"]+)""#, in: html))
        for control in matches(#"(<(?:input|select|textarea)\b[^>]*>)"#, in: html) where !control.contains("type=\"hidden\"") {
            let id = matches(#"\sid="([^"]+)""#, in: control).first
            let named = control.contains("aria-label=") || control.contains("aria-hidden=\"true\"") || id.map(labelled.contains) == true
            if !named { problems.append("control without a label: \(control)") }
        }
        for tag in ["form", "fieldset", "ul", "li", "label", "select", "details", "dl", "main", "header", "nav", "section", "a", "p"] {
            let opened = matches("(<\(tag)[\\s>])", in: html).count, closed = matches("(</\(tag)>)", in: html).count
            if opened != closed { problems.append("<\(tag)> opened \(opened) times, closed \(closed)") }
        }
        let divs = matches(#"(<div[\s>])"#, in: html).count, closedDivs = matches("(</div>)", in: html).count
        if divs != closedDivs { problems.append("<div> opened \(divs) times, closed \(closedDivs)") }
        if html.utf8.count >= 60_000 { problems.append("page weighs \(html.utf8.count) bytes") }
        return problems
    }
}
