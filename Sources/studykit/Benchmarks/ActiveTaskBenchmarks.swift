import ActiveTasks
import Foundation
import Research

/// Benchmarks of the active task analyzers: what the server does with a posted test (check every sample, compute the
/// measures), timed per test.
struct ActiveTaskBenchmarks {
    var secondsPerMeasurement: Double

    func run() throws -> [BenchmarkRow] {
        // A 20-second two-finger tapping run at 7 taps a second, one touch in ten beside the buttons.
        let duration = 20.0
        let content = ActiveStepContent(module: TappingModule.name, duration: duration, settings: ["targets": .number(2), "hand": .text("right")])
        let step = Step(identifier: "tapping.right", kind: .active(content), isOptional: false)
        let taps = Int(duration * 7)
        let samples = (0..<taps).map { index -> String in
            let beside = index % 10 == 9
            let (button, x) = beside ? ("none", 150.0) : (index % 2 == 0 ? ("left", 65.0) : ("right", 235.0))
            return #"{"timestamp":\#(0.5 + Double(index) / 7),"duration":0.061,"buttonIdentifier":"\#(button)","location":{"x":\#(x),"y":\#(beside ? 100 : 335)}}"#
        }
        let posted = Data(("""
            {"stepViewSize":{"width":300,"height":400},"buttonRect1":{"x":30,"y":300,"width":70,"height":70},\
            "buttonRect2":{"x":200,"y":300,"width":70,"height":70},"samples":[\(samples.joined(separator: ","))],"complete":true}
            """).utf8)
        let module = TappingModule()
        let rate = try measureOperationsPerSecond(seconds: secondsPerMeasurement) {
            let result = try module.result(of: step, content: content, posted: posted)
            precondition(result.measure("tapCount")?.value != nil)
        }
        return [
            BenchmarkRow(name: "tapping: check + analyse a 20 s run", value: 1_000_000 / rate, unit: "µs",
                         note: "\(taps) touches, \(posted.count / 1024) KiB posted"),
        ]
    }
}
