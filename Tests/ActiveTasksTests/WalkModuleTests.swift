import Foundation
import JSONDiagnostics
import Research
import Testing
@testable import ActiveTasks

/// The walking tasks: steps counted from a synthetic 2 Hz walk (with noise, a gap, a phone that stops half-way, 20
/// readings a second instead of 60, the accelerometer alone), the distance from location fixes, the recorder files,
/// recordings that cannot be true, and the tasks' factories.
struct WalkModuleTests {
    let content = ActiveStepContent(module: "walk", duration: 30, settings: ["phase": .text("walk"), "recorders": .text("accelerometer,deviceMotion,location"),
                                                                           "frequency": .number(60)])
    let step = Step(identifier: "walking.outbound", kind: .active(ActiveStepContent(module: "walk")), isOptional: false)

    /// A deterministic noise source (a linear congruential generator), so that a failure repeats.
    struct Noise {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        mutating func next(_ amplitude: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * amplitude
        }
    }

    /// The times of readings from `start` for `seconds` at `rate` a second, less those in `gap` and after `until`.
    func times(start: Double = 1, seconds: Double = 30, rate: Double = 60, until: Double = .infinity, gap: ClosedRange<Double>? = nil) -> [Double] {
        (0..<Int((seconds * rate).rounded())).map { start + Double($0) / rate }.filter { $0 <= until && !(gap?.contains($0) ?? false) }
    }

    /// Device motion of a phone upright in a pocket (gravity along −y) while its wearer walks `cadence` steps a minute:
    /// the vertical acceleration swings `amplitude` g once a step, with `noise` g on every axis.
    func deviceMotion(_ times: [Double], cadence: Double = 120, amplitude: Double = 0.3, noise: Double = 0) -> [String] {
        var random = Noise()
        return times.map { time in
            let vertical = amplitude * sin(2 * .pi * cadence / 60 * (time - 1))
            let a = (x: random.next(noise), y: -vertical + random.next(noise), z: random.next(noise))
            return #"{"timestamp":\#(time),"attitude":{"x":0.7071068,"y":0,"z":0,"w":0.7071068},"rotationRate":{"x":0,"y":0,"z":0},"userAcceleration":{"x":\#(a.x),"y":\#(a.y),"z":\#(a.z)},"gravity":{"x":0,"y":-1,"z":0}}"#
        }
    }

    /// The accelerometer of the same walk: gravity and the swing together.
    func accelerometer(_ times: [Double], cadence: Double = 120, amplitude: Double = 0.3, noise: Double = 0) -> [String] {
        var random = Noise()
        return times.map { time in
            let vertical = amplitude * sin(2 * .pi * cadence / 60 * (time - 1))
            return #"{"timestamp":\#(time),"x":\#(random.next(noise)),"y":\#(-1 - vertical + random.next(noise)),"z":\#(random.next(noise))}"#
        }
    }

    /// Location fixes one a second walking north at `speed` m/s from (52.52°, 13.405°), with `accuracy` metres.
    func fixes(seconds: Int = 30, speed: Double = 1.2, accuracy: Double = 5) -> [String] {
        (0...seconds).map { second in
            let latitude = 52.52 + Double(second) * speed / (WalkAnalyzer.earthRadius * .pi / 180)
            return #"{"timestamp":\#(1 + Double(second)),"coordinate":{"latitude":\#(latitude),"longitude":13.405},"altitude":null,"horizontalAccuracy":\#(accuracy),"speed":null,"course":null}"#
        }
    }

    func document(deviceMotion: [String]? = nil, accelerometer: [String]? = nil, location: [String]? = nil, unavailable: String? = nil,
                  start: Double? = 1, end: Double? = 31, complete: Bool = true) -> Data {
        func recorder(_ items: [String]?) -> String {
            unavailable.map { #"{"unavailable":"\#($0)"}"# } ?? #"{"items":[\#((items ?? []).joined(separator: ","))]}"#
        }
        let number = { (value: Double?) in value.map { "\($0)" } ?? "null" }
        return Data(#"{"recorders":{"accelerometer":\#(recorder(accelerometer)),"deviceMotion":\#(recorder(deviceMotion)),"location":\#(recorder(location))},"start":\#(number(start)),"end":\#(number(end)),"complete":\#(complete)}"#.utf8)
    }

    func measures(_ result: ActiveStepResult) -> [String: Double?] {
        Dictionary(uniqueKeysWithValues: result.measures.map { ($0.identifier, $0.value) })
    }

    func measured(_ posted: Data) throws -> (steps: Double?, cadence: Double?, distance: Double?, duration: Double?) {
        let m = measures(try WalkModule().result(of: step, content: content, posted: posted))
        return ((m["stepCount"] ?? nil), (m["cadence"] ?? nil), (m["distance"] ?? nil), (m["duration"] ?? nil))
    }

    @Test func aSteadyTwoHertzWalkOfThirtySecondsIsSixtySteps() throws {
        let result = try WalkModule().result(of: step, content: content, posted: document(deviceMotion: deviceMotion(times()),
                                                                                          accelerometer: accelerometer(times()), location: fixes()))
        let m = measures(result)
        let steps = try #require(m["stepCount"] ?? nil), cadence = try #require(m["cadence"] ?? nil)
        #expect(abs(steps - 60) <= 2, "\(steps)")
        #expect(abs(cadence - 120) <= 4, "\(cadence)")
        #expect(abs((m["distance"] ?? nil)! - 36) < 0.1)
        #expect(m["duration"] == 30)
        #expect(result.measures.map(\.units) == [nil, "steps/min", "m", "s"])
        // Each recorder's readings are a file of the run, in ResearchKit's layout.
        #expect(result.files.map(\.identifier) == ["accelerometer", "deviceMotion", "location"])
        let file = try #require(result.files.first { $0.identifier == "deviceMotion" })
        guard case .array(let items)? = try JSONTree(data: file.data)["items"] else { Issue.record("no items"); return }
        #expect(items.count == 1_800)
        #expect(result.samples["recorders"]?["deviceMotion"]?["rate"] == .number("60"))
        #expect(result.samples["phase"] == .string("walk"))
    }

    @Test func noiseAGapAndTwentyReadingsASecondStillCountTheSteps() throws {
        let noisy = try measured(document(deviceMotion: deviceMotion(times(), noise: 0.05)))
        #expect(abs(noisy.steps! - 60) <= 2, "\(noisy.steps!)")
        // A second without readings: its two steps are not counted (nor invented), and the cadence is over the rest.
        let gap = try measured(document(deviceMotion: deviceMotion(times(gap: 10...11))))
        #expect(abs(gap.steps! - 58) <= 2, "\(gap.steps!)")
        #expect(abs(gap.cadence! - 120) <= 5, "\(gap.cadence!)")
        let slow = try measured(document(deviceMotion: deviceMotion(times(rate: 20), noise: 0.03)))
        #expect(abs(slow.steps! - 60) <= 2, "\(slow.steps!)")
        // The accelerometer alone (no device motion): the length of its reading swings about 1 g.
        let accelerometerOnly = try measured(document(deviceMotion: [], accelerometer: accelerometer(times(), noise: 0.03)))
        #expect(abs(accelerometerOnly.steps! - 60) <= 2, "\(accelerometerOnly.steps!)")
        // A slower walk: 90 steps a minute.
        let slower = try measured(document(deviceMotion: deviceMotion(times(), cadence: 90, noise: 0.03)))
        #expect(abs(slower.steps! - 45) <= 2 && abs(slower.cadence! - 90) <= 4, "\(slower)")
    }

    @Test func aPhoneThatStopsReportingHalfWayCountsTheHalfItReported() throws {
        let half = try measured(document(deviceMotion: deviceMotion(times(until: 16)), location: Array(fixes().prefix(16))))
        #expect(abs(half.steps! - 30) <= 2, "\(half.steps!)")
        #expect(abs(half.cadence! - 120) <= 5, "\(half.cadence!)")
        #expect(abs(half.distance! - 18) < 0.1)
        // The walk itself lasted its 30 s.
        #expect(half.duration == 30)
    }

    @Test func aPhoneStandingStillCountsNoSteps() throws {
        let still = try measured(document(deviceMotion: deviceMotion(times(), amplitude: 0, noise: 0.01)))
        #expect(still.steps == 0 && still.cadence == 0)
    }

    @Test func inaccurateFixesAreLeftOutOfTheDistance() throws {
        // Every third fix is 80 m off to the east, with an accuracy of 65 m: left out.
        let walked = fixes().enumerated().map { index, fix in
            index % 3 == 1 ? fix.replacingOccurrences(of: #""longitude":13.405"#, with: #""longitude":13.4062"#)
                .replacingOccurrences(of: #""horizontalAccuracy":5"#, with: #""horizontalAccuracy":65"#) : fix
        }
        let result = try measured(document(deviceMotion: deviceMotion(times()), location: walked))
        #expect(abs(result.distance! - 36) < 0.1)
        // One degree of latitude on the mean sphere.
        let a = LocationSample(timestamp: 0, latitude: 0, longitude: 0, horizontalAccuracy: 5)
        let b = LocationSample(timestamp: 1, latitude: 1, longitude: 0, horizontalAccuracy: 5)
        #expect(abs(WalkAnalyzer.haversine(a, b) - 111_195.08) < 0.01)
        // Fewer than two accurate fixes: no distance.
        let poor = try measured(document(deviceMotion: deviceMotion(times()), location: fixes(accuracy: 100)))
        #expect(poor.distance == nil)
    }

    @Test func deniedSensorsAreRecordedAsSuchWithOnlyTheTimeMeasured() throws {
        let result = try WalkModule().result(of: step, content: content, posted: document(unavailable: "denied"))
        let m = measures(result)
        #expect(m["stepCount"] == .some(nil) && m["cadence"] == .some(nil) && m["distance"] == .some(nil))
        #expect(m["duration"] == 30)
        #expect(result.files.isEmpty)
        #expect(result.samples["recorders"]?["deviceMotion"]?["unavailable"] == .string("denied"))
        // Stopped before the start: nothing at all.
        let stopped = try WalkModule().result(of: step, content: content, posted: document(unavailable: "absent", start: nil, end: nil, complete: false))
        #expect(stopped.measures.allSatisfy { $0.value == nil } && !stopped.isComplete)
    }

    @Test func recordingsThatCannotBeTrueAreRefusedWhereTheyAreWrong() {
        func path(_ posted: Data, content: ActiveStepContent? = nil) -> String? {
            do {
                _ = try WalkModule().result(of: step, content: content ?? self.content, posted: posted)
                return nil
            } catch {
                return error.path
            }
        }
        // An end before the start, or later than the step's duration allows.
        #expect(path(document(deviceMotion: [], start: 5, end: 4)) == "end")
        #expect(path(document(deviceMotion: [], start: 1, end: 40)) == "end")
        // A walk that says it is complete but ended early.
        #expect(path(document(deviceMotion: [], start: 1, end: 10)) == "end")
        // An end without a start.
        #expect(path(document(deviceMotion: [], start: nil, end: 10, complete: false)) == "end")
        // Readings after the end.
        #expect(path(document(deviceMotion: deviceMotion(times(start: 1, seconds: 35))))?.hasPrefix("recorders.deviceMotion.items[") == true)
        // 100 readings a second where 60 were asked for.
        #expect(path(document(deviceMotion: deviceMotion(times(rate: 100)))) == "recorders.deviceMotion.items")
        // More bytes than the step's readings can take (200 readings a second).
        #expect(path(document(deviceMotion: deviceMotion(times(rate: 200)))) == "")
        // A timed walk is complete at a touch before its time limit.
        let timed = ActiveStepContent(module: "walk", duration: 30, settings: ["phase": .text("timed"), "recorders": .text("accelerometer,deviceMotion,location"),
                                                                             "frequency": .number(60), "distance": .number(10)])
        #expect(path(document(deviceMotion: [], start: 1, end: 10), content: timed) == nil)
    }

    @Test func aStepsPostIsBoundedByItsDurationRateAndRecorders() throws {
        let sixMinutes = try WalkTask.sixMinuteWalk(identifier: "six")
        guard case .active(let walk)? = sixMinutes.steps.first(where: { $0.identifier == "fitness.walk" })?.kind else { Issue.record("no walk"); return }
        let bytes = WalkModule().maximumPostedBytes(for: walk)
        // Six minutes at 30 a second with three recorders: 6,152,416 bytes, and its form under nginx's 16 MB.
        #expect(bytes == 6_152_416)
        #expect(2 * bytes + (1 << 20) < 16 << 20)
        // A real post of that walk fits (steps with 0.05 g of noise, rounded as the browser rounds).
        var random = Noise()
        let times = times(seconds: 360, rate: 30)
        let items = times.map { time in
            func r() -> String { String(format: "%.6f", random.next(0.3)) }
            return #"{"timestamp":\#(String(format: "%.6f", time)),"attitude":{"x":\#(r()),"y":\#(r()),"z":\#(r()),"w":0.9},"rotationRate":{"x":\#(r()),"y":\#(r()),"z":\#(r())},"userAcceleration":{"x":\#(r()),"y":\#(r()),"z":\#(r())},"gravity":{"x":\#(r()),"y":\#(r()),"z":\#(r())}}"#
        }
        #expect(items.reduce(0) { $0 + $1.utf8.count + 1 } < bytes)
        // The usual limit elsewhere.
        #expect(CountdownModule().maximumPostedBytes(for: ActiveStepContent(module: "countdown")) == 1_000_000)
    }

    @Test func theTasksHaveResearchKitsStepsAndTheirSettingsAreChecked() throws {
        let short = try ActiveTaskCatalog.task(named: "shortWalk", identifier: "walk", settings: ["numberOfStepsPerLeg": .number("10")])
        #expect(short.steps.map(\.identifier) == ["instruction", "instruction1", "walking.outbound", "walking.return", "walking.rest", "conclusion"])
        #expect(short.steps[2].activeContent?.duration == 10)
        let back = try ActiveTaskCatalog.task(named: "walkBackAndForth", identifier: "b", settings: ["walkDuration": .number("30"), "restDuration": .number("0")])
        #expect(back.steps.map(\.identifier) == ["instruction", "instruction1", "walking.outbound", "conclusion"])
        let timed = try ActiveTaskCatalog.task(named: "timedWalk", identifier: "t", settings: ["distanceInMeters": .number("25"), "excludeInstructions": .bool(true)],
                                               language: "ko")
        #expect(timed.steps.map(\.identifier) == ["timed.walk.form", "timed.walk.trial1", "timed.walk.turn.around", "timed.walk.trial2", "conclusion"])
        #expect(timed.title == "시간 측정 걷기")
        let noForm = try ActiveTaskCatalog.task(named: "timedWalk", identifier: "t", settings: ["includeAssistiveDeviceForm": .bool(false)])
        #expect(noForm.steps.first?.identifier == "instruction")
        let fitness = try ActiveTaskCatalog.task(named: "fitnessCheck", identifier: "f", settings: [:], language: "es")
        #expect(fitness.steps.map(\.identifier) == ["instruction", "instruction1", "fitness.walk", "fitness.rest", "conclusion"])
        #expect(fitness.steps[2].activeContent?.text("recorders") == "accelerometer,deviceMotion,location")
        let six = try ActiveTaskCatalog.task(named: "sixMinuteWalk", identifier: "s", settings: [:], language: "ja")
        #expect(six.steps.map(\.identifier) == ["instruction", "instruction1", "fitness.walk", "fitness.rest", "fitness.questions", "conclusion"])
        #expect(six.title == "6 分間歩行")
        for (name, settings) in [("shortWalk", ["numberOfStepsPerLeg": JSONTree.number("0")]), ("timedWalk", ["distanceInMeters": .number("-3")]),
                                 ("fitnessCheck", ["frequency": .number("100")]), ("walkBackAndForth", ["walkDuration": .number("600"), "frequency": .number("60")]),
                                 ("sixMinuteWalk", ["restDuration": .number("-1")]), ("shortWalk", ["pedometer": .bool(true)])] {
            #expect(throws: ActiveTaskSettingsError.self, "\(name) \(settings)") { try ActiveTaskCatalog.task(named: name, identifier: "x", settings: settings) }
        }
    }
}

extension Step {
    /// The step's active content; nil for another kind of step.
    var activeContent: ActiveStepContent? {
        if case .active(let content) = kind { content } else { nil }
    }
}
