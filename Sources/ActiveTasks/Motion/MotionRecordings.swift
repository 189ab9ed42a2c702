import Foundation
import JSONDiagnostics

/// What the recorders of one active step posted, checked: each recorder's items, or why it has none.
///
/// The step posts `"recorders": {"deviceMotion": {"items": [...]}, "location": {"unavailable": "denied"}}`: every
/// recorder the step's settings name, and no other. The server keeps a recorder's items only when each has exactly its
/// fields (``MotionRecorder``), every number is finite and in its range, the timestamps rise within the step's time,
/// and there are no more of them than the step's sampling rate allows (with a quarter to spare, since a browser's
/// rate wanders); a sensor that was denied, is absent, or gave no reading is recorded as such, never filled in.
public struct MotionRecordings: Hashable, Sendable {
    /// Why a recorder has no items.
    public enum Unavailable: String, CaseIterable, Hashable, Sendable {
        /// The participant (or the browser, for them) refused access to the sensor.
        case denied
        /// The browser has no such sensor or interface.
        case absent
        /// Access was given, but no reading came while the step ran.
        case noReadings
    }

    /// The accelerometer's samples; nil when not recorded.
    public var accelerometer: [AccelerometerSample]?
    /// The device motion samples; nil when not recorded.
    public var deviceMotion: [DeviceMotionSample]?
    /// The orientation samples; nil when not recorded.
    public var orientation: [OrientationSample]?
    /// The location samples; nil when not recorded.
    public var location: [LocationSample]?
    /// The recorders that gave nothing, and why.
    public var unavailable: [MotionRecorder: Unavailable]
    /// Each recorded recorder's file, `{"items": [...]}` as checked, in ResearchKit's layout.
    public var files: [MotionRecorder: Data]

    /// Recordings read from nothing: every recorder unavailable as `unavailable` says.
    public init(unavailable: [MotionRecorder: Unavailable] = [:]) {
        self.unavailable = unavailable
        files = [:]
    }

    /// The recorders a step's `recorders` setting names: a comma-separated list of ``MotionRecorder`` names.
    public static func recorders(named setting: String?) -> [MotionRecorder] {
        (setting ?? "").split(separator: ",").compactMap { MotionRecorder(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The recordings at `path` of a posted document: each of `expected`, sampled at most `frequency` times a second
    /// (location at most once a second), between 0 and `end` seconds on the step's clock.
    static func read(_ value: JSONTree?, _ path: String, expected: [MotionRecorder], frequency: Double,
                     end: Double) throws(ActiveSamplesError) -> MotionRecordings {
        let members = try PostedSamples.members(value, path, known: Set(expected.map(\.rawValue)), required: Set(expected.map(\.rawValue)))
        var recordings = MotionRecordings()
        for recorder in expected {
            let recorderPath = PostedSamples.join(path, recorder.rawValue)
            let fields = try PostedSamples.members(members[recorder.rawValue], recorderPath, known: ["items", "unavailable"])
            if let reason = fields["unavailable"] {
                guard fields["items"] == nil else {
                    throw ActiveSamplesError(path: recorderPath, message: "has both items and a reason it is unavailable")
                }
                let text = try PostedSamples.choice(reason, PostedSamples.join(recorderPath, "unavailable"), among: Unavailable.allCases.map(\.rawValue))
                recordings.unavailable[recorder] = Unavailable(rawValue: text)
                continue
            }
            let rate = recorder == .location ? 1 : min(frequency, recorder.highestRate)
            // A quarter more than the rate asks for, and a few for the first and last instants.
            let limit = Int((rate * 1.25 * max(end, 0)).rounded(.up)) + 5
            let items = try PostedSamples.array(fields["items"], PostedSamples.join(recorderPath, "items"), limit: limit)
            var reader = ItemReader(path: PostedSamples.join(recorderPath, "items"), end: end)
            switch recorder {
            case .accelerometer: recordings.accelerometer = try items.enumerated().map { index, item throws(ActiveSamplesError) in try reader.accelerometer(item, index) }
            case .deviceMotion: recordings.deviceMotion = try items.enumerated().map { index, item throws(ActiveSamplesError) in try reader.deviceMotion(item, index) }
            case .orientation: recordings.orientation = try items.enumerated().map { index, item throws(ActiveSamplesError) in try reader.orientation(item, index) }
            case .location: recordings.location = try items.enumerated().map { index, item throws(ActiveSamplesError) in try reader.location(item, index) }
            }
            if items.isEmpty {
                recordings.unavailable[recorder] = .noReadings
            } else {
                recordings.files[recorder] = JSONTree.object([.init(key: "items", value: .array(reader.checked))]).jsonData
            }
        }
        return recordings
    }

    /// The summary of the recordings kept in the step's samples: per recorder, how many items and at what rate, or why
    /// there are none (the items themselves are the run's files).
    var tree: JSONTree {
        var members: [JSONTree.Member] = []
        let counts: [(MotionRecorder, [Double]?)] = [(.accelerometer, accelerometer?.map(\.timestamp)), (.deviceMotion, deviceMotion?.map(\.timestamp)),
                                                     (.orientation, orientation?.map(\.timestamp)), (.location, location?.map(\.timestamp))]
        for (recorder, timestamps) in counts {
            if let reason = unavailable[recorder] {
                members.append(.init(key: recorder.rawValue, value: .object([.init(key: "unavailable", value: .string(reason.rawValue))])))
            } else if let timestamps {
                members.append(.init(key: recorder.rawValue, value: .object([
                    .init(key: "items", value: .number(Double(timestamps.count))),
                    .init(key: "rate", value: MotionRecordings.rate(of: timestamps).map { .number(($0 * 10).rounded() / 10) } ?? .null),
                ])))
            }
        }
        return .object(members)
    }

    /// Items a second over the span of `timestamps`; nil for fewer than two or no span.
    public static func rate(of timestamps: [Double]) -> Double? {
        guard timestamps.count > 1, let first = timestamps.first, let last = timestamps.last, last > first else { return nil }
        return Double(timestamps.count - 1) / (last - first)
    }

    /// Reads one recorder's items in order, keeping each as checked for the file.
    private struct ItemReader {
        let path: String
        let end: Double
        var previous = -Double.infinity
        var checked: [JSONTree] = []

        /// The most a vector's component may be: g for accelerations, radians a second for rotation.
        static let componentLimit = 1_000.0

        private mutating func timestamp(_ fields: [String: JSONTree], _ itemPath: String) throws(ActiveSamplesError) -> Double {
            // Timestamps rise; two readings of one instant cannot be told apart, so the second is refused.
            let lowest = previous.isFinite ? previous.nextUp : 0
            let time = try PostedSamples.number(fields["timestamp"], "\(itemPath).timestamp", in: min(lowest, end + 1)...end + 1)
            previous = time
            return time
        }

        private func vector(_ value: JSONTree?, _ path: String) throws(ActiveSamplesError) -> MotionVector {
            let fields = try PostedSamples.members(value, path, known: ["x", "y", "z"], required: ["x", "y", "z"])
            let range = -Self.componentLimit...Self.componentLimit
            return MotionVector(x: try PostedSamples.number(fields["x"], "\(path).x", in: range), y: try PostedSamples.number(fields["y"], "\(path).y", in: range),
                                z: try PostedSamples.number(fields["z"], "\(path).z", in: range))
        }

        private static func tree(_ vector: MotionVector) -> JSONTree {
            .object([.init(key: "x", value: .number(vector.x)), .init(key: "y", value: .number(vector.y)), .init(key: "z", value: .number(vector.z))])
        }

        mutating func accelerometer(_ item: JSONTree, _ index: Int) throws(ActiveSamplesError) -> AccelerometerSample {
            let itemPath = "\(path)[\(index)]"
            let fields = try PostedSamples.members(item, itemPath, known: ["timestamp", "x", "y", "z"], required: ["timestamp", "x", "y", "z"])
            let time = try timestamp(fields, itemPath)
            let range = -Self.componentLimit...Self.componentLimit
            let acceleration = MotionVector(x: try PostedSamples.number(fields["x"], "\(itemPath).x", in: range),
                                            y: try PostedSamples.number(fields["y"], "\(itemPath).y", in: range),
                                            z: try PostedSamples.number(fields["z"], "\(itemPath).z", in: range))
            checked.append(.object([.init(key: "timestamp", value: .number(time)), .init(key: "x", value: .number(acceleration.x)),
                                    .init(key: "y", value: .number(acceleration.y)), .init(key: "z", value: .number(acceleration.z))]))
            return AccelerometerSample(timestamp: time, acceleration: acceleration)
        }

        mutating func deviceMotion(_ item: JSONTree, _ index: Int) throws(ActiveSamplesError) -> DeviceMotionSample {
            let itemPath = "\(path)[\(index)]"
            let names: Set<String> = ["timestamp", "attitude", "rotationRate", "userAcceleration", "gravity"]
            let fields = try PostedSamples.members(item, itemPath, known: names, required: names)
            let time = try timestamp(fields, itemPath)
            let attitudePath = "\(itemPath).attitude"
            let parts = try PostedSamples.members(fields["attitude"], attitudePath, known: ["x", "y", "z", "w"], required: ["x", "y", "z", "w"])
            let unit = -1.0...1.0
            let attitude = MotionQuaternion(x: try PostedSamples.number(parts["x"], "\(attitudePath).x", in: unit),
                                            y: try PostedSamples.number(parts["y"], "\(attitudePath).y", in: unit),
                                            z: try PostedSamples.number(parts["z"], "\(attitudePath).z", in: unit),
                                            w: try PostedSamples.number(parts["w"], "\(attitudePath).w", in: unit))
            guard abs(attitude.norm - 1) < 0.01 else {
                throw ActiveSamplesError(path: attitudePath, message: "is not a rotation: its length is \(PostedSamples.text(attitude.norm)), not 1")
            }
            let sample = DeviceMotionSample(timestamp: time, attitude: attitude,
                                            rotationRate: try vector(fields["rotationRate"], "\(itemPath).rotationRate"),
                                            userAcceleration: try vector(fields["userAcceleration"], "\(itemPath).userAcceleration"),
                                            gravity: try vector(fields["gravity"], "\(itemPath).gravity"))
            checked.append(.object([
                .init(key: "timestamp", value: .number(time)),
                .init(key: "attitude", value: .object([.init(key: "x", value: .number(attitude.x)), .init(key: "y", value: .number(attitude.y)),
                                                       .init(key: "z", value: .number(attitude.z)), .init(key: "w", value: .number(attitude.w))])),
                .init(key: "rotationRate", value: Self.tree(sample.rotationRate)),
                .init(key: "userAcceleration", value: Self.tree(sample.userAcceleration)),
                .init(key: "gravity", value: Self.tree(sample.gravity)),
            ]))
            return sample
        }

        mutating func orientation(_ item: JSONTree, _ index: Int) throws(ActiveSamplesError) -> OrientationSample {
            let itemPath = "\(path)[\(index)]"
            let fields = try PostedSamples.members(item, itemPath, known: ["timestamp", "alpha", "beta", "gamma"], required: ["timestamp", "alpha", "beta", "gamma"])
            let time = try timestamp(fields, itemPath)
            let sample = OrientationSample(timestamp: time, alpha: try PostedSamples.number(fields["alpha"], "\(itemPath).alpha", in: 0...360),
                                           beta: try PostedSamples.number(fields["beta"], "\(itemPath).beta", in: -180...180),
                                           gamma: try PostedSamples.number(fields["gamma"], "\(itemPath).gamma", in: -90...90))
            checked.append(.object([.init(key: "timestamp", value: .number(time)), .init(key: "alpha", value: .number(sample.alpha)),
                                    .init(key: "beta", value: .number(sample.beta)), .init(key: "gamma", value: .number(sample.gamma))]))
            return sample
        }

        mutating func location(_ item: JSONTree, _ index: Int) throws(ActiveSamplesError) -> LocationSample {
            let itemPath = "\(path)[\(index)]"
            let names: Set<String> = ["timestamp", "coordinate", "altitude", "horizontalAccuracy", "speed", "course"]
            let fields = try PostedSamples.members(item, itemPath, known: names, required: ["timestamp", "coordinate", "horizontalAccuracy"])
            let time = try timestamp(fields, itemPath)
            let coordinatePath = "\(itemPath).coordinate"
            let coordinate = try PostedSamples.members(fields["coordinate"], coordinatePath, known: ["latitude", "longitude"], required: ["latitude", "longitude"])
            let sample = LocationSample(timestamp: time,
                                        latitude: try PostedSamples.number(coordinate["latitude"], "\(coordinatePath).latitude", in: -90...90),
                                        longitude: try PostedSamples.number(coordinate["longitude"], "\(coordinatePath).longitude", in: -180...180),
                                        altitude: try PostedSamples.optionalNumber(fields["altitude"], "\(itemPath).altitude", in: -12_000...100_000),
                                        horizontalAccuracy: try PostedSamples.number(fields["horizontalAccuracy"], "\(itemPath).horizontalAccuracy", in: 0...1_000_000),
                                        speed: try PostedSamples.optionalNumber(fields["speed"], "\(itemPath).speed", in: 0...1_000),
                                        course: try PostedSamples.optionalNumber(fields["course"], "\(itemPath).course", in: 0...360))
            func optional(_ value: Double?) -> JSONTree { value.map { .number($0) } ?? .null }
            checked.append(.object([
                .init(key: "timestamp", value: .number(time)),
                .init(key: "coordinate", value: .object([.init(key: "latitude", value: .number(sample.latitude)),
                                                         .init(key: "longitude", value: .number(sample.longitude))])),
                .init(key: "altitude", value: optional(sample.altitude)), .init(key: "horizontalAccuracy", value: .number(sample.horizontalAccuracy)),
                .init(key: "speed", value: optional(sample.speed)), .init(key: "course", value: optional(sample.course)),
            ]))
            return sample
        }
    }
}

/// One accelerometer reading: the acceleration including gravity, in g.
public struct AccelerometerSample: Hashable, Sendable {
    /// Seconds on the step's clock.
    public var timestamp: Double
    /// The acceleration in g, as Core Motion points it.
    public var acceleration: MotionVector

    /// A reading at `timestamp`.
    public init(timestamp: Double, acceleration: MotionVector) {
        self.timestamp = timestamp
        self.acceleration = acceleration
    }
}

/// One device motion reading, with Core Motion's fields.
public struct DeviceMotionSample: Hashable, Sendable {
    /// Seconds on the step's clock.
    public var timestamp: Double
    /// The device's orientation in the Earth's frame.
    public var attitude: MotionQuaternion
    /// Radians a second about each axis.
    public var rotationRate: MotionVector
    /// The acceleration the user gives the device, without gravity, in g.
    public var userAcceleration: MotionVector
    /// Gravity in the device's frame, in g.
    public var gravity: MotionVector

    /// A reading at `timestamp`.
    public init(timestamp: Double, attitude: MotionQuaternion, rotationRate: MotionVector, userAcceleration: MotionVector, gravity: MotionVector) {
        self.timestamp = timestamp
        self.attitude = attitude
        self.rotationRate = rotationRate
        self.userAcceleration = userAcceleration
        self.gravity = gravity
    }
}

/// One orientation reading, as `DeviceOrientationEvent` gives it (degrees).
public struct OrientationSample: Hashable, Sendable {
    public var timestamp: Double
    public var alpha: Double
    public var beta: Double
    public var gamma: Double

    /// A reading at `timestamp`.
    public init(timestamp: Double, alpha: Double, beta: Double, gamma: Double) {
        self.timestamp = timestamp
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma
    }
}

/// One location reading.
public struct LocationSample: Hashable, Sendable {
    public var timestamp: Double
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var horizontalAccuracy: Double
    public var speed: Double?
    public var course: Double?

    /// A reading at `timestamp`.
    public init(timestamp: Double, latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double,
                speed: Double? = nil, course: Double? = nil) {
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.course = course
    }
}
