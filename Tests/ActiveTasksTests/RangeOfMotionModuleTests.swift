import Foundation
import JSONDiagnostics
import Research
import Testing
@testable import ActiveTasks

/// The range-of-motion module: angles from attitudes (with noise, a gap, a phone that stops half-way, 20 readings a
/// second), the recorder file it keeps, and recordings that cannot be true.
struct RangeOfMotionModuleTests {
    let content = ActiveStepContent(module: "rangeOfMotion", settings: ["joint": .text("knee"), "side": .text("right"),
                                                                        "recorders": .text("deviceMotion"), "frequency": .number(60)])
    let step = Step(identifier: "rangeOfMotion.right", kind: .active(ActiveStepContent(module: "rangeOfMotion")), isOptional: false)

    /// A deterministic noise source (a linear congruential generator), so that a failure repeats.
    struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next(_ amplitude: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * amplitude
        }
    }

    /// Device motion items of a knee that bends from `beta` 0° (leg straight, phone flat) to `peak` and back over
    /// `seconds`, sampled `rate` times a second from 1 s, with `noise` degrees of jitter on each angle; `until` cuts the
    /// readings off (a phone that stops reporting).
    func bend(peak: Double = 90, seconds: Double = 4, rate: Double = 60, noise: Double = 0, until: Double = .infinity,
              skipping gap: ClosedRange<Double>? = nil) -> [String] {
        var random = Noise()
        var items: [String] = []
        let count = Int(seconds * rate)
        for index in 0...count {
            let time = 1 + Double(index) / rate
            guard time <= until, !(gap?.contains(time) ?? false) else { continue }
            let phase = Double(index) / Double(count)
            let beta = peak * sin(.pi * phase) + random.next(noise)
            let q = MotionQuaternion(alpha: 30 + random.next(noise), beta: beta, gamma: random.next(noise))
            items.append(#"{"timestamp":\#(time),"attitude":{"x":\#(q.x),"y":\#(q.y),"z":\#(q.z),"w":\#(q.w)},"rotationRate":{"x":0,"y":0,"z":0},"userAcceleration":{"x":0,"y":0,"z":0},"gravity":{"x":0,"y":0,"z":-1}}"#)
        }
        return items
    }

    func document(_ items: [String]?, start: Double? = 1, finish: Double? = 5.5, complete: Bool = true, unavailable: String? = nil) -> Data {
        let recorder = unavailable.map { #"{"unavailable":"\#($0)"}"# } ?? #"{"items":[\#((items ?? []).joined(separator: ","))]}"#
        return Data(#"{"recorders":{"deviceMotion":\#(recorder)},"startTouch":\#(start.map { "\($0)" } ?? "null"),"finishTouch":\#(finish.map { "\($0)" } ?? "null"),"landscape":false,"complete":\#(complete)}"#.utf8)
    }

    func measures(_ result: ActiveStepResult) -> [String: Double?] {
        Dictionary(uniqueKeysWithValues: result.measures.map { ($0.identifier, $0.value) })
    }

    @Test func aKneeBentFromStraightToNinetyDegreesHasARangeOfNinety() throws {
        let result = try RangeOfMotionModule().result(of: step, content: content, posted: document(bend()))
        let m = measures(result)
        #expect(abs((m["range"] ?? nil)! - 90) < 0.2)
        // Flat at the start (tilt 0): start is 90° less 0; back to flat at the finish.
        #expect(abs((m["start"] ?? nil)! - 90) < 0.2)
        #expect(abs((m["finish"] ?? nil)! - 90) < 0.2)
        #expect(abs((m["minimum"] ?? nil)! - 0) < 0.2)
        #expect(abs((m["maximum"] ?? nil)! - 90) < 0.2)
        #expect(result.measures.allSatisfy { $0.units == "°" })
        // The readings are the run's file, in ResearchKit's layout.
        let file = try #require(result.files.first { $0.identifier == "deviceMotion" })
        let tree = try JSONTree(data: file.data)
        guard case .array(let items)? = tree["items"] else { Issue.record("no items"); return }
        #expect(items.count == 241)
        #expect(items.first?["attitude"]?["w"] != nil && items.first?["gravity"]?["z"] == .number("-1"))
        #expect(result.samples["recorders"]?["deviceMotion"]?["items"] == .number("241"))
        #expect(result.samples["recorders"]?["deviceMotion"]?["rate"] == .number("60"))
    }

    @Test func noiseAGapAndTwentyReadingsASecondStillGiveTheRange() throws {
        let noisy = try RangeOfMotionModule().result(of: step, content: content, posted: document(bend(noise: 0.5)))
        #expect(abs((measures(noisy)["range"] ?? nil)! - 90) < 2)
        let gap = try RangeOfMotionModule().result(of: step, content: content, posted: document(bend(skipping: 3.5...4.0)))
        // The gap falls after the peak (at 3 s): the peak is still read.
        #expect(abs((measures(gap)["range"] ?? nil)! - 90) < 0.5)
        let slow = try RangeOfMotionModule().result(of: step, content: content, posted: document(bend(rate: 20)))
        #expect(abs((measures(slow)["range"] ?? nil)! - 90) < 0.5)
        #expect(slow.samples["recorders"]?["deviceMotion"]?["rate"] == .number("20"))
    }

    @Test func aPhoneHeldTheOtherWayUpAndAnArmRaisedPastAHalfTurnReadWithoutAJump() throws {
        // The top of the phone toward the foot: the knee bends to −90° of tilt; start stays 90, the far end is 180.
        let reversed = measures(try RangeOfMotionModule().result(of: step, content: content, posted: document(bend(peak: -90))))
        #expect(abs((reversed["range"] ?? nil)! - 90) < 0.2 && abs((reversed["maximum"] ?? nil)! - 180) < 0.2)
        // A shoulder raised from hanging to 200°, past a half turn (readings cross ±180° on the way).
        let raised = measures(try RangeOfMotionModule().result(of: step, content: content, posted: document(bend(peak: 200))))
        #expect(abs((raised["range"] ?? nil)! - 200) < 0.2)
    }

    @Test func aPhoneThatStopsReportingHalfWayGivesTheRangeItSaw() throws {
        // Readings stop at 2 s, when the knee is at 90 × sin(π/4) ≈ 63.6°.
        let result = try RangeOfMotionModule().result(of: step, content: content, posted: document(bend(until: 2)))
        let range = try #require(measures(result)["range"] ?? nil)
        #expect(abs(range - 90 * sin(Double.pi / 4)) < 0.5)
    }

    @Test func aPhoneWithoutDeviceMotionIsMeasuredFromItsOrientation() throws {
        // No gyroscope: no device motion reading, but orientation from the accelerometer and compass, as it changes.
        let both = ActiveStepContent(module: "rangeOfMotion", settings: ["recorders": .text("deviceMotion,orientation"), "frequency": .number(60)])
        let orientation = stride(from: 0.0, through: 90, by: 5).enumerated().map { index, beta in
            #"{"timestamp":\#(1 + Double(index) * 0.1),"alpha":200,"beta":\#(beta),"gamma":0}"#
        } + [#"{"timestamp":3.5,"alpha":200,"beta":0,"gamma":0}"#]
        let posted = Data(#"{"recorders":{"deviceMotion":{"items":[]},"orientation":{"items":[\#(orientation.joined(separator: ","))]}},"startTouch":1,"finishTouch":4,"landscape":false,"complete":true}"#.utf8)
        let result = try RangeOfMotionModule().result(of: step, content: both, posted: posted)
        let m = measures(result)
        #expect(abs((m["range"] ?? nil)! - 90) < 0.2 && abs((m["start"] ?? nil)! - 90) < 0.2)
        #expect(result.files.map(\.identifier) == ["orientation"])
        #expect(result.samples["recorders"]?["deviceMotion"]?["unavailable"] == .string("noReadings"))
    }

    @Test func aDeniedSensorIsRecordedAsSuchWithNoMeasuresAndNoFile() throws {
        let result = try RangeOfMotionModule().result(of: step, content: content,
                                                      posted: document(nil, start: nil, finish: nil, complete: false, unavailable: "denied"))
        #expect(result.measures.allSatisfy { $0.value == nil })
        #expect(result.files.isEmpty)
        #expect(result.samples["recorders"]?["deviceMotion"]?["unavailable"] == .string("denied"))
        let silent = try RangeOfMotionModule().result(of: step, content: content, posted: document([], complete: true))
        #expect(silent.measures.allSatisfy { $0.value == nil })
        #expect(silent.samples["recorders"]?["deviceMotion"]?["unavailable"] == .string("noReadings"))
    }

    @Test(arguments: [
        // Timestamps that go back.
        (#"{"recorders":{"deviceMotion":{"items":[ITEM1,ITEM0]}},"startTouch":1,"finishTouch":5,"landscape":false,"complete":true}"#, "recorders.deviceMotion.items[1].timestamp"),
        // An attitude that is no rotation.
        (#"{"recorders":{"deviceMotion":{"items":[{"timestamp":1,"attitude":{"x":0.5,"y":0.5,"z":0,"w":0},"rotationRate":{"x":0,"y":0,"z":0},"userAcceleration":{"x":0,"y":0,"z":0},"gravity":{"x":0,"y":0,"z":-1}}]}},"startTouch":1,"finishTouch":5,"landscape":false,"complete":true}"#, "recorders.deviceMotion.items[0].attitude"),
        // A field ResearchKit does not have.
        (#"{"recorders":{"deviceMotion":{"items":[{"timestamp":1,"heading":3,"attitude":{"x":0,"y":0,"z":0,"w":1},"rotationRate":{"x":0,"y":0,"z":0},"userAcceleration":{"x":0,"y":0,"z":0},"gravity":{"x":0,"y":0,"z":-1}}]}},"startTouch":1,"finishTouch":5,"landscape":false,"complete":true}"#, "recorders.deviceMotion.items[0].heading"),
        // A recorder the step did not ask for.
        (#"{"recorders":{"deviceMotion":{"items":[]},"location":{"items":[]}},"startTouch":1,"finishTouch":5,"landscape":false,"complete":true}"#, "recorders.location"),
        // Items and a reason together.
        (#"{"recorders":{"deviceMotion":{"items":[],"unavailable":"denied"}},"startTouch":1,"finishTouch":5,"landscape":false,"complete":true}"#, "recorders.deviceMotion"),
        // A finish before the start.
        (#"{"recorders":{"deviceMotion":{"items":[]}},"startTouch":3,"finishTouch":2,"landscape":false,"complete":true}"#, "finishTouch"),
        // Complete without a finish.
        (#"{"recorders":{"deviceMotion":{"items":[]}},"startTouch":3,"finishTouch":null,"landscape":false,"complete":true}"#, "finishTouch"),
    ])
    func recordingsThatCannotBeTrueAreRefusedWhereTheyAreWrong(_ text: String, _ path: String) {
        let item = { (time: Double) in #"{"timestamp":\#(time),"attitude":{"x":0,"y":0,"z":0,"w":1},"rotationRate":{"x":0,"y":0,"z":0},"userAcceleration":{"x":0,"y":0,"z":0},"gravity":{"x":0,"y":0,"z":-1}}"# }
        let posted = text.replacingOccurrences(of: "ITEM1", with: item(2)).replacingOccurrences(of: "ITEM0", with: item(1.5))
        #expect(throws: ActiveSamplesError.self) { try RangeOfMotionModule().result(of: step, content: content, posted: Data(posted.utf8)) }
        do {
            _ = try RangeOfMotionModule().result(of: step, content: content, posted: Data(posted.utf8))
        } catch {
            #expect(error.path == path, "\(error)")
        }
    }

    @Test func aTruncatedOrHugeBodyIsRefusedWithWhereItBroke() {
        let whole = String(decoding: document(bend()), as: UTF8.self)
        let truncated = Data(whole.prefix(whole.count / 2).utf8)
        do {
            _ = try RangeOfMotionModule().result(of: step, content: content, posted: truncated)
            Issue.record("a truncated body was kept")
        } catch {
            #expect(error.path.hasPrefix("recorders.deviceMotion.items["), "\(error)")
        }
        // Over the samples' limit (1 MB), before anything is parsed.
        let huge = Data((#"{"recorders":{"deviceMotion":{"items":["# + String(repeating: " ", count: 1_100_000) + "]}}}").utf8)
        #expect(throws: ActiveSamplesError.self) { try RangeOfMotionModule().result(of: step, content: content, posted: huge) }
    }

    @Test func moreReadingsThanTheRateAllowsAreRefused() {
        // 200 readings a second for 4.5 s, where the step asked for 60.
        let items = bend(seconds: 4.5, rate: 200)
        #expect(throws: ActiveSamplesError.self) { try RangeOfMotionModule().result(of: step, content: content, posted: document(items)) }
    }

    @Test func theTaskIsBuiltFromAStudyFileWithItsSettingsChecked() throws {
        let task = try ActiveTaskCatalog.task(named: "kneeRangeOfMotion", identifier: "knee", settings: ["side": .string("left")], language: "ja")
        #expect(task.steps.map(\.identifier) == ["instruction", "instruction1", "rangeOfMotion.left", "conclusion"])
        #expect(task.title == "膝の可動域（左）")
        #expect(throws: ActiveTaskSettingsError.self) {
            try ActiveTaskCatalog.task(named: "kneeRangeOfMotion", identifier: "knee", settings: ["side": .string("middle")])
        }
        #expect(throws: ActiveTaskSettingsError.self) {
            try ActiveTaskCatalog.task(named: "shoulderRangeOfMotion", identifier: "s", settings: ["frequency": .number("500")])
        }
    }

    @Test func theBrowsersAnglesGiveTheW3CQuaternion() {
        // Tilted 90° about x only: the quaternion of a half turn's half about x.
        let upright = MotionQuaternion(alpha: 0, beta: 90, gamma: 0)
        #expect(abs(upright.x - sin(Double.pi / 4)) < 1e-12 && abs(upright.w - cos(Double.pi / 4)) < 1e-12)
        #expect(abs(upright.tiltDegrees() - 90) < 1e-9 && abs(upright.twistDegrees() - 90) < 1e-9)
        // A turn about the vertical changes no tilt; a tilt on the side is read about y.
        #expect(abs(MotionQuaternion(alpha: 120, beta: 35, gamma: 0).tiltDegrees() - 35) < 1e-9)
        #expect(abs(MotionQuaternion(alpha: 200, beta: 0, gamma: -40).tiltDegrees(aboutY: true) + 40) < 1e-9)
        #expect(abs(MotionQuaternion(alpha: 0, beta: 180, gamma: 0).tiltDegrees() - 180) < 1e-9)
        let q = MotionQuaternion(alpha: 10, beta: 20, gamma: 30)
        #expect(abs(q.norm - 1) < 1e-12)
        let identity = q.inverse.multiplied(by: q)
        #expect(abs(identity.w - 1) < 1e-12 && abs(identity.x) < 1e-12)
    }
}
