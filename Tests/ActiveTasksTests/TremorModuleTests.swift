import Foundation
import JSONDiagnostics
import Research
import Testing
@testable import ActiveTasks

/// The tremor test: its steps as ResearchKit's, its settings, and the analyzer on synthetic tremors (with noise, a gap,
/// a phone that stops half-way, 20 readings a second), the recorder files it keeps, and sensors that gave nothing.
struct TremorModuleTests {
    let content = ActiveStepContent(module: "tremor", duration: 10, settings: ["pose": .text("inLap"), "hand": .text("right"),
                                                                              "recorders": .text("accelerometer,deviceMotion"), "frequency": .number(60)])
    let step = Step(identifier: "tremor.handInLap.right", kind: .active(ActiveStepContent(module: "tremor")), isOptional: false)

    /// A deterministic noise source (a linear congruential generator), so that a failure repeats.
    struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next(_ amplitude: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * amplitude
        }
    }

    /// Readings of a hand shaking at `frequency` Hz with `amplitude` g along a slanted direction, `rate` times a second
    /// over `seconds` (with `jitter` seconds of jitter on each instant), `noise` g of noise on each axis; `until` cuts
    /// them off, `gap` leaves some out.
    static func shaking(frequency: Double = 5, amplitude: Double = 0.05, seconds: Double = 10, rate: Double = 60, noise: Double = 0,
                        jitter: Double = 0, until: Double = .infinity, gap: ClosedRange<Double>? = nil) -> [(time: Double, acceleration: MotionVector)] {
        var random = Noise()
        let direction = MotionVector(x: 0.6, y: 0.0, z: 0.8)
        return (0..<Int(seconds * rate)).compactMap { index in
            let time = (Double(index) + 0.5) / rate + random.next(jitter)
            guard time <= until, !(gap?.contains(time) ?? false) else { return nil }
            let value = amplitude * sin(2 * .pi * frequency * time + 0.3)
            return (time, MotionVector(x: direction.x * value + random.next(noise), y: 0.01 + random.next(noise), z: direction.z * value + random.next(noise)))
        }
    }

    func document(_ readings: [(time: Double, acceleration: MotionVector)], end: Double = 10, complete: Bool = true, accelerometer: String? = nil,
                  deviceMotion: String? = nil) -> Data {
        func v(_ m: MotionVector) -> String { #"{"x":\#(m.x),"y":\#(m.y),"z":\#(m.z)}"# }
        let motion = readings.map { #"{"timestamp":\#($0.time),"attitude":{"x":0,"y":0,"z":0,"w":1},"rotationRate":{"x":0,"y":0,"z":0},"userAcceleration":\#(v($0.acceleration)),"gravity":{"x":0,"y":0,"z":-1}}"# }
        let raw = readings.map { #"{"timestamp":\#($0.time),"x":\#($0.acceleration.x),"y":\#($0.acceleration.y),"z":\#($0.acceleration.z - 1)}"# }
        let a = accelerometer ?? #"{"items":[\#(raw.joined(separator: ","))]}"#
        let d = deviceMotion ?? #"{"items":[\#(motion.joined(separator: ","))]}"#
        return Data(#"{"recorders":{"accelerometer":\#(a),"deviceMotion":\#(d)},"end":\#(end),"complete":\#(complete)}"#.utf8)
    }

    func measures(_ result: ActiveStepResult) -> [String: Double?] {
        Dictionary(uniqueKeysWithValues: result.measures.map { ($0.identifier, $0.value) })
    }

    @Test func theStepsAreResearchKitsForEachHandAndPose() throws {
        let task = try TremorTask.make(identifier: "tremor", duration: 10, hands: .both, excluding: [.elbowBent, .touchNose])
        #expect(task.steps.map(\.identifier) == [
            "instruction", "instruction1",
            "instruction.right", "countdown.tremor.handInLap.right", "tremor.handInLap.right", "countdown.tremor.handAtShoulderLength.right",
            "tremor.handAtShoulderLength.right", "countdown.tremor.handQueenWave.right", "tremor.handQueenWave.right",
            "instruction.left", "countdown.tremor.handInLap.left", "tremor.handInLap.left", "countdown.tremor.handAtShoulderLength.left",
            "tremor.handAtShoulderLength.left", "countdown.tremor.handQueenWave.left", "tremor.handQueenWave.left", "conclusion",
        ])
        let one = try ActiveTaskCatalog.task(named: "tremorTest", identifier: "t", settings: ["hands": .string("left"), "duration": .number("3"),
                                                                                             "exclude": .array([.string("inLap")])])
        #expect(one.steps.filter { if case .active(let c) = $0.kind { c.module == "tremor" } else { false } }.count == 4)
        #expect(one.steps.contains { $0.identifier == "tremor.handToNose.left" })
    }

    @Test func settingsOutOfRangeAreRefusedByName() {
        #expect(throws: ActiveTaskSettingsError.self) { try TremorTask.make(identifier: "t", duration: 1) }
        #expect(throws: ActiveTaskSettingsError.self) { try TremorTask.make(identifier: "t", excluding: Set(TremorTask.Pose.allCases)) }
        do {
            _ = try ActiveTaskCatalog.task(named: "tremorTest", identifier: "t", settings: ["exclude": .array([.string("inTheAir")])])
            Issue.record("an unknown pose was taken")
        } catch {
            #expect(error.path == "exclude[0]")
        }
    }

    @Test func aFiveHertzTremorIsFiveHertzWithItsAmplitude() throws {
        let result = try TremorModule().result(of: step, content: content, posted: document(Self.shaking()))
        let m = measures(result)
        #expect(abs((m["dominantFrequency"] ?? nil)! - 5) < 0.02)
        #expect(abs((m["amplitude"] ?? nil)! - 0.05) < 0.001)
        #expect((m["bandShare"] ?? nil)! > 99)
        #expect(result.measures.map(\.units) == ["Hz", "g", "%"])
        #expect(result.isComplete)
        #expect(result.files.map(\.identifier) == ["accelerometer", "deviceMotion"])
        #expect(result.samples["recorders"]?["deviceMotion"]?["items"] == .number("600"))
    }

    @Test func noiseGapsJitterAStopHalfWayAndTwentyReadingsASecondStillGiveTheFrequency() throws {
        let cases: [(String, [(time: Double, acceleration: MotionVector)])] = [
            ("noise", Self.shaking(noise: 0.05)),
            ("gap", Self.shaking(gap: 3...5.5)),
            ("jitter", Self.shaking(jitter: 0.003)),
            ("stops half-way", Self.shaking(until: 5)),
            ("20 a second", Self.shaking(rate: 20)),
            ("8 Hz at 20 a second", Self.shaking(frequency: 8, rate: 20)),
            ("11 Hz", Self.shaking(frequency: 11)),
        ]
        for (name, readings) in cases {
            let expected = name.hasPrefix("8 Hz") ? 8.0 : name == "11 Hz" ? 11.0 : 5.0
            let measures = try #require(TremorAnalyzer().measures(of: readings), "\(name)")
            #expect(abs(measures.dominantFrequency - expected) < 0.1, "\(name): \(measures.dominantFrequency)")
            #expect(abs(measures.amplitude - 0.05) < 0.01, "\(name): \(measures.amplitude)")
        }
        // Noise alone: a frequency is named, but the sinusoid explains little of the movement.
        let still = try #require(TremorAnalyzer().measures(of: Self.shaking(amplitude: 0, noise: 0.02)))
        #expect(still.bandShare < 10 && still.amplitude < 0.005)
    }

    @Test func aTremorOfTheAccelerometerAloneIsReadWithGravityRemoved() throws {
        let result = try TremorModule().result(of: step, content: content, posted: document(Self.shaking(), deviceMotion: #"{"unavailable":"absent"}"#))
        #expect(abs((measures(result)["dominantFrequency"] ?? nil)! - 5) < 0.02)
        #expect(result.samples["recorders"]?["deviceMotion"] == .object([.init(key: "unavailable", value: .string("absent"))]))
        #expect(result.files.map(\.identifier) == ["accelerometer"])
    }

    @Test func tooFewReadingsOrTooShortASpanHaveNoMeasures() {
        #expect(TremorAnalyzer().measures(of: Self.shaking(seconds: 1)) == nil)
        #expect(TremorAnalyzer().measures(of: Array(Self.shaking().prefix(10))) == nil)
        // Readings twice a second cannot show a tremor of 3 Hz or more.
        #expect(TremorAnalyzer().measures(of: Self.shaking(rate: 2)) == nil)
    }

    @Test func deniedOrSilentSensorsAreKeptAsSuchWithoutMeasures() throws {
        let denied = #"{"unavailable":"denied"}"#
        let result = try TremorModule().result(of: step, content: content, posted: document([], end: 10, complete: false, accelerometer: denied, deviceMotion: denied))
        #expect(!result.isComplete && result.files.isEmpty)
        #expect(result.measures.allSatisfy { $0.value == nil })
        // Granted, but no reading came: the step cannot be complete, whatever the browser says.
        let silent = try TremorModule().result(of: step, content: content, posted: document([]))
        #expect(!silent.isComplete && silent.measures.allSatisfy { $0.value == nil })
        #expect(silent.samples["recorders"]?["accelerometer"] == .object([.init(key: "unavailable", value: .string("noReadings"))]))
    }

    @Test func recordingsThatCannotBeTrueAreRefused() {
        // Past the step's end.
        #expect(throws: ActiveSamplesError.self) { try TremorModule().result(of: step, content: content, posted: document(Self.shaking(seconds: 12), end: 10)) }
        // Complete before the duration.
        #expect(throws: ActiveSamplesError.self) { try TremorModule().result(of: step, content: content, posted: document(Self.shaking(seconds: 4), end: 5)) }
        // More readings than the step's rate allows.
        #expect(throws: ActiveSamplesError.self) { try TremorModule().result(of: step, content: content, posted: document(Self.shaking(rate: 150))) }
    }
}
