import Foundation

/// The measures of a walking step, each defined in the README ("Active tasks"): steps counted from the acceleration,
/// cadence, distance from location fixes, and the walk's duration.
///
/// A browser has no pedometer (ResearchKit's walking tasks read Core Motion's `CMPedometer` where the phone has one),
/// so steps are counted from the recorded acceleration:
///
/// 1. The signal is the acceleration along gravity: device motion's `userAcceleration` projected on its `gravity`
///    (in g); without device motion, the length of the accelerometer's reading (gravity included, so its mean is 1 g).
/// 2. The readings are cut into segments wherever two are more than ``maximumGap`` apart; nothing is counted in a gap.
/// 3. Each segment is band-passed: the mean of the readings within 0.05 s either side (smoothing jitter), less the mean
///    within 0.5 s either side (removing gravity and slow drift), so that it swings about 0 once a step.
/// 4. A step is counted when the signal rises above +T after having been below −T (a Schmitt trigger, so noise on one
///    swing is not a second step), at least ``minimumStepInterval`` after the last step. T is the larger of
///    ``stepThreshold`` and 0.3 times the segment's root-mean-square, so a still phone counts nothing and a strong
///    stride is not counted twice.
///
/// Cadence is the steps a minute over the time the segments cover (so a phone that stops reporting half-way gives the
/// cadence of the half it reported). Distance is the sum of the great-circle (haversine) distances between successive
/// location fixes whose `horizontalAccuracy` is no worse than ``maximumAccuracy``; nil with fewer than two such fixes.
public struct WalkAnalyzer: Sendable {
    /// The smallest swing, in g, counted as a step.
    public var stepThreshold: Double
    /// The shortest time between two steps, in seconds (240 steps a minute).
    public var minimumStepInterval: Double
    /// The longest time between two readings, in seconds, that is not a gap.
    public var maximumGap: Double
    /// The worst horizontal accuracy, in metres, of a location fix that counts toward the distance.
    public var maximumAccuracy: Double

    /// An analyzer with the thresholds above (by default 0.04 g, 0.25 s, 0.5 s and 20 m).
    public init(stepThreshold: Double = 0.04, minimumStepInterval: Double = 0.25, maximumGap: Double = 0.5, maximumAccuracy: Double = 20) {
        self.stepThreshold = stepThreshold
        self.minimumStepInterval = minimumStepInterval
        self.maximumGap = maximumGap
        self.maximumAccuracy = maximumAccuracy
    }

    /// The steps counted in a signal, and the seconds its readings cover.
    public struct Steps: Hashable, Sendable {
        /// Steps counted.
        public var count: Int
        /// Seconds covered by readings (gaps left out).
        public var covered: Double
        /// Steps a minute over ``covered``; nil when it covers no time.
        public var cadence: Double? { covered > 0 ? Double(count) / covered * 60 : nil }
    }

    /// The steps in device motion readings from `start` to `end` seconds; nil without readings.
    public func steps(deviceMotion samples: [DeviceMotionSample], from start: Double = -.infinity, to end: Double = .infinity) -> Steps? {
        let signal = samples.filter { $0.timestamp >= start && $0.timestamp <= end }.map { sample -> (Double, Double) in
            let g = sample.gravity, a = sample.userAcceleration
            let length = g.magnitude
            // Along gravity; with no gravity given, the acceleration's length.
            let value = length > 0.1 ? (a.x * g.x + a.y * g.y + a.z * g.z) / length : a.magnitude
            return (sample.timestamp, value)
        }
        return steps(in: signal)
    }

    /// The steps in accelerometer readings from `start` to `end` seconds (the length of each, gravity included); nil
    /// without readings.
    public func steps(accelerometer samples: [AccelerometerSample], from start: Double = -.infinity, to end: Double = .infinity) -> Steps? {
        steps(in: samples.filter { $0.timestamp >= start && $0.timestamp <= end }.map { ($0.timestamp, $0.acceleration.magnitude) })
    }

    /// The steps in a signal of (seconds, g), its times rising.
    func steps(in signal: [(time: Double, value: Double)]) -> Steps? {
        guard !signal.isEmpty else { return nil }
        var count = 0, covered = 0.0
        var segmentStart = 0
        for index in 1...signal.count where index == signal.count || signal[index].time - signal[index - 1].time > maximumGap {
            let segment = Array(signal[segmentStart..<index])
            covered += segment[segment.count - 1].time - segment[0].time
            count += countSteps(in: Self.bandPassed(segment))
            segmentStart = index
        }
        return Steps(count: count, covered: covered)
    }

    /// The mean within 0.05 s of each reading less the mean within 0.5 s of it.
    static func bandPassed(_ segment: [(time: Double, value: Double)]) -> [(time: Double, value: Double)] {
        let smooth = centredMeans(segment, halfWidth: 0.05), slow = centredMeans(segment, halfWidth: 0.5)
        return segment.indices.map { (segment[$0].time, smooth[$0] - slow[$0]) }
    }

    /// For each reading, the mean of the readings within `halfWidth` seconds either side (two pointers: linear time).
    static func centredMeans(_ segment: [(time: Double, value: Double)], halfWidth: Double) -> [Double] {
        var means: [Double] = []
        means.reserveCapacity(segment.count)
        var low = 0, high = 0, sum = 0.0
        for reading in segment {
            while high < segment.count, segment[high].time <= reading.time + halfWidth {
                sum += segment[high].value
                high += 1
            }
            while segment[low].time < reading.time - halfWidth {
                sum -= segment[low].value
                low += 1
            }
            means.append(sum / Double(high - low))
        }
        return means
    }

    private func countSteps(in signal: [(time: Double, value: Double)]) -> Int {
        guard !signal.isEmpty else { return 0 }
        let rms = (signal.reduce(0) { $0 + $1.value * $1.value } / Double(signal.count)).squareRoot()
        let threshold = max(stepThreshold, 0.3 * rms)
        var armed = true, last = -Double.infinity, count = 0
        for reading in signal {
            if armed, reading.value > threshold {
                armed = false
                if reading.time - last >= minimumStepInterval {
                    count += 1
                    last = reading.time
                }
            } else if reading.value < -threshold {
                armed = true
            }
        }
        return count
    }

    /// Metres walked between the location fixes from `start` to `end` seconds that are accurate to ``maximumAccuracy``;
    /// nil with fewer than two such fixes.
    public func distance(of fixes: [LocationSample], from start: Double = -.infinity, to end: Double = .infinity) -> Double? {
        let accurate = fixes.filter { $0.timestamp >= start && $0.timestamp <= end && $0.horizontalAccuracy <= maximumAccuracy }
        guard accurate.count > 1 else { return nil }
        return zip(accurate, accurate.dropFirst()).reduce(0) { $0 + Self.haversine($1.0, $1.1) }
    }

    /// The Earth's mean radius in metres (IUGG).
    static let earthRadius = 6_371_008.8

    /// The great-circle distance in metres between two fixes.
    static func haversine(_ a: LocationSample, _ b: LocationSample) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (b.latitude - a.latitude) * radians, dLongitude = (b.longitude - a.longitude) * radians
        let h = sin(dLatitude / 2) * sin(dLatitude / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}
