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
        let (spanContent, spanPosted, touches) = Self.spatialSpanRun(games: 16)
        let spanStep = Step(identifier: "spatialSpan", kind: .active(spanContent), isOptional: false)
        let spanModule = SpatialSpanModule()
        let spanRate = try measureOperationsPerSecond(seconds: secondsPerMeasurement) {
            let result = try spanModule.result(of: spanStep, content: spanContent, posted: spanPosted)
            precondition(result.measure("numberOfGames")?.value == 16)
        }
        return [
            BenchmarkRow(name: "tapping: check + analyse a 20 s run", value: 1_000_000 / rate, unit: "µs",
                         note: "\(taps) touches, \(posted.count / 1024) KiB posted"),
            BenchmarkRow(name: "spatial span: check + analyse 16 games", value: 1_000_000 / spanRate, unit: "µs",
                         note: "\(touches) touches, \(spanPosted.count / 1024) KiB posted"),
        ]
    }

    /// A spatial span run of `games` games, every one won (spans 3, 4, … up to 9, then 9), a touch every half second.
    static func spatialSpanRun(games: Int) -> (ActiveStepContent, Data, Int) {
        let content = ActiveStepContent(module: SpatialSpanModule.name, settings: [
            "initialSpan": .number(3), "minimumSpan": .number(2), "maximumSpan": .number(9), "playSpeed": .number(1),
            "maximumTests": .number(Double(games)), "maximumConsecutiveFailures": .number(3), "requireReversal": .flag(false),
        ])
        let rects = (0..<9).map { #"{"x":\#(($0 % 3) * 100),"y":\#(($0 / 3) * 100),"width":100,"height":100}"# }.joined(separator: ",")
        var time = 1.0, touches = 0
        let records = (0..<games).map { game -> String in
            let sequence = (0..<min(3 + game, 9)).map { ($0 * 4 + game) % 9 }
            let samples = sequence.map { target -> String in
                time += 0.5
                touches += 1
                return #"{"timestamp":\#(time),"targetIndex":\#(target),"location":{"x":\#((target % 3) * 100 + 50),"y":\#((target / 3) * 100 + 50)}}"#
            }
            time += 5
            return #"{"sequence":[\#(sequence.map(String.init).joined(separator: ","))],"touchSamples":[\#(samples.joined(separator: ","))]}"#
        }
        let posted = Data(#"{"stepViewSize":{"width":300,"height":300},"targetRects":[\#(rects)],"gameRecords":[\#(records.joined(separator: ","))],"complete":true}"#.utf8)
        return (content, posted, touches)
    }
}
