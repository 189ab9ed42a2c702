/// The measures of a range-of-motion step, with ResearchKit's names and its arithmetic, each defined in the README
/// ("Active tasks"):
///
/// - The reference is the attitude of the first device motion reading at or after the touch that starts. Each reading
///   until the touch that finishes gives the device's rotation from the reference (the reference's inverse times the
///   reading), and its angle is that rotation's part about the device's x axis (its y axis when the screen was in
///   landscape), in degrees, followed from reading to reading past ±180° (so a joint that moves further than a half
///   turn, or back and forth across one, reads without a jump).
/// - `start`: 90° less the reference's own tilt about that axis (read from gravity: 0 for a phone lying face up, 90
///   upright); `finish`: `start` less the last angle; `minimum` and `maximum`: `start` less the largest and the
///   smallest angle; `range`: `maximum` less `minimum`. All in degrees. Which of `start`'s sides the movement goes to
///   depends on which way up the phone is held; `range` does not.
///
/// The attitude is the device's own, as the browser reports it, never a rotation rate added up: an error in one reading
/// stays in that reading. ResearchKit reads the angle with an Euler pitch and moves angles from 90° to 180° down by
/// 360°; here the angle is followed instead, which reads the same for a movement that stays within those bounds and
/// does not jump when a reading wanders across 90°.
public struct RangeOfMotionAnalyzer: Sendable {
    /// The measures; nil without a reading between the two touches.
    public struct Measures: Hashable, Sendable {
        public var start: Double
        public var finish: Double
        public var minimum: Double
        public var maximum: Double
        public var range: Double
    }

    /// Whether the screen was in landscape (the tilt is then read about the device's y axis).
    public var landscape: Bool

    /// An analyzer for a screen in portrait, or in landscape.
    public init(landscape: Bool = false) {
        self.landscape = landscape
    }

    /// The measures of the device motion readings from `start` to `finish` seconds on the step's clock.
    public func measures(of samples: [DeviceMotionSample], from start: Double, to finish: Double) -> Measures? {
        measures(ofAttitudes: samples.map { (timestamp: $0.timestamp, attitude: $0.attitude) }, from: start, to: finish)
    }

    /// The measures of attitudes (each with its timestamp, in order) from `start` to `finish` seconds on the step's
    /// clock: device motion's, or the orientation recorder's on a phone whose browser gives orientation but no device
    /// motion (one without a gyroscope).
    public func measures(ofAttitudes samples: [(timestamp: Double, attitude: MotionQuaternion)], from start: Double, to finish: Double) -> Measures? {
        let moving = samples.filter { $0.timestamp >= start && $0.timestamp <= finish }
        guard let reference = moving.first?.attitude else { return nil }
        let inverse = reference.inverse
        var lowest = Double.infinity, highest = -Double.infinity, last = 0.0
        for sample in moving {
            let twist = inverse.multiplied(by: sample.attitude).twistDegrees(aboutY: landscape)
            // Followed from the last angle: the step between two readings is taken as the shorter way round.
            var step = (twist - last).truncatingRemainder(dividingBy: 360)
            if step > 180 { step -= 360 } else if step < -180 { step += 360 }
            let angle = last + step
            lowest = min(lowest, angle)
            highest = max(highest, angle)
            last = angle
        }
        let startAngle = 90 - reference.tiltDegrees(aboutY: landscape)
        let minimum = startAngle - highest, maximum = startAngle - lowest
        return Measures(start: startAngle, finish: startAngle - last, minimum: minimum, maximum: maximum, range: maximum - minimum)
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["start", "finish", "minimum", "maximum", "range"]

    /// `measures` in the order of ``measureNames``, in degrees; all nil without measures.
    public static func list(_ measures: Measures?) -> [(identifier: String, value: Double?, units: String?)] {
        let values = measures.map { [$0.start, $0.finish, $0.minimum, $0.maximum, $0.range] } ?? Array(repeating: nil, count: 5)
        return zip(measureNames, values).map { ($0, $1.map { ($0 * 10).rounded() / 10 }, "°") }
    }
}
