import Foundation
import JSONDiagnostics
import Testing
@testable import ActiveTasks

/// The recorders a step posts: each kind's items read into samples and written back as its file, and readings that
/// cannot be true refused at their path.
struct MotionRecordingsTests {
    func read(_ json: String, expected: [MotionRecorder], frequency: Double = 60, end: Double = 10) throws(ActiveSamplesError) -> MotionRecordings {
        let tree: JSONTree
        do { tree = try JSONTree(data: Data(json.utf8)) } catch { throw ActiveSamplesError(path: "", message: "\(error)") }
        return try MotionRecordings.read(tree, "recorders", expected: expected, frequency: frequency, end: end)
    }

    @Test func everyKindOfRecorderIsReadAndWrittenBackAsItsFile() throws {
        let recordings = try read("""
            {"accelerometer": {"items": [{"timestamp": 0.5, "x": 0.01, "y": -0.98, "z": 0.1}, {"timestamp": 0.52, "x": 0, "y": -1, "z": 0}]},
             "orientation": {"items": [{"timestamp": 0.5, "alpha": 350.5, "beta": 80, "gamma": -3}]},
             "location": {"items": [{"timestamp": 1, "coordinate": {"latitude": 52.52, "longitude": 13.405}, "altitude": null,
                                     "horizontalAccuracy": 8, "speed": 1.3, "course": null}]},
             "deviceMotion": {"unavailable": "denied"}}
            """, expected: [.accelerometer, .orientation, .location, .deviceMotion])
        #expect(recordings.accelerometer?.map(\.acceleration.y) == [-0.98, -1])
        #expect(recordings.orientation?.first?.alpha == 350.5)
        #expect(recordings.location?.first?.latitude == 52.52 && recordings.location?.first?.altitude == nil)
        #expect(recordings.unavailable == [.deviceMotion: .denied])
        #expect(Set(recordings.files.keys) == [.accelerometer, .orientation, .location])
        let file = try #require(recordings.files[.location])
        #expect(String(decoding: file, as: UTF8.self) == #"{"items":[{"timestamp":1,"coordinate":{"latitude":52.52,"longitude":13.405},"altitude":null,"horizontalAccuracy":8,"speed":1.3,"course":null}]}"#)
        let location = try JSONTree(data: file)
        #expect(location["items"] == .array([.object([
            .init(key: "timestamp", value: .number("1")),
            .init(key: "coordinate", value: .object([.init(key: "latitude", value: .number("52.52")), .init(key: "longitude", value: .number("13.405"))])),
            .init(key: "altitude", value: .null), .init(key: "horizontalAccuracy", value: .number("8")),
            .init(key: "speed", value: .number("1.3")), .init(key: "course", value: .null),
        ])]))
        #expect(MotionRecordings.recorders(named: "deviceMotion, location,unknown") == [.deviceMotion, .location])
    }

    @Test(arguments: [
        (#"{"accelerometer": {"items": [{"timestamp": 0.5, "x": 5000, "y": 0, "z": 0}]}}"#, "recorders.accelerometer.items[0].x"),
        (#"{"accelerometer": {"items": [{"timestamp": 0.5, "x": 1, "y": 0}]}}"#, "recorders.accelerometer.items[0].z"),
        (#"{"accelerometer": {"items": [{"timestamp": 0.5, "x": 1, "y": 0, "z": 0}, {"timestamp": 0.5, "x": 1, "y": 0, "z": 0}]}}"#, "recorders.accelerometer.items[1].timestamp"),
        (#"{"accelerometer": {"items": [{"timestamp": 99, "x": 1, "y": 0, "z": 0}]}}"#, "recorders.accelerometer.items[0].timestamp"),
        (#"{"accelerometer": {"unavailable": "bored"}}"#, "recorders.accelerometer.unavailable"),
        (#"{"accelerometer": {"items": [{"timestamp": 0.5, "x": "1", "y": 0, "z": 0}]}}"#, "recorders.accelerometer.items[0].x"),
        (#"{}"#, "recorders.accelerometer"),
    ])
    func impossibleReadingsAreRefusedAtTheirPath(_ json: String, _ path: String) {
        do {
            _ = try read(json, expected: [.accelerometer])
            Issue.record("kept: \(json)")
        } catch {
            #expect(error.path.hasPrefix(path), "\(error)")
        }
    }

    @Test func locationIsKeptAtMostAboutOnceASecond() {
        // Twenty fixes in two seconds, where a location recorder gives about one a second.
        let fixes = (0..<20).map { #"{"timestamp": \#(0.1 * Double($0)), "coordinate": {"latitude": 0, "longitude": 0}, "horizontalAccuracy": 5}"# }
        #expect(throws: ActiveSamplesError.self) {
            try read(#"{"location": {"items": [\#(fixes.joined(separator: ","))]}}"#, expected: [.location], end: 2)
        }
    }
}
