import Foundation

/// The measures of one tremor pose, each defined in the README ("Active tasks"):
///
/// - The signal is the device motion's `userAcceleration` (gravity already removed by the device), or, when the step
///   has fewer than ``minimumReadings`` device motion readings, the accelerometer's acceleration; in g either way.
/// - Each axis has its mean removed, and the three are projected onto their principal axis (the eigenvector of the
///   largest eigenvalue of their 3 × 3 covariance), so a tremor along any direction of the phone is one signal. The
///   magnitude of the vector is not used: it folds a sinusoid's negative half onto its positive half and reads twice
///   its frequency.
/// - The periodogram is the Lomb–Scargle one (a least-squares fit of a cosine and a sine at each frequency), which
///   needs no even spacing: readings the browser dropped, or a gap, leave the fit at the remaining instants. It is
///   evaluated every 0.01 Hz over the tremor band, 3 to 12 Hz (``band``), but not above the Nyquist frequency of the
///   readings' median spacing (10 Hz for readings 20 times a second), and the highest point is refined with a
///   parabola through it and its neighbours.
/// - `dominantFrequency`: the frequency of that highest point, in Hz. `amplitude`: the amplitude of the fitted
///   sinusoid at that frequency (half its peak-to-peak swing), in g. `bandShare`: the share (%) of the signal's
///   variance that sinusoid explains: near 100 for a steady tremor, small for noise.
///
/// There are no measures with fewer than ``minimumReadings`` readings or when they span less than
/// ``minimumSpan`` seconds (a phone that stopped giving readings half-way is measured over what it gave).
public struct TremorAnalyzer: Sendable {
    /// The measures of one pose.
    public struct Measures: Hashable, Sendable {
        /// The frequency of the periodogram's highest point in the band, in Hz.
        public var dominantFrequency: Double
        /// The amplitude of the least-squares sinusoid at that frequency (half its peak-to-peak swing), in g.
        public var amplitude: Double
        /// The share of the signal's variance that sinusoid explains, in %.
        public var bandShare: Double
    }

    /// The tremor band searched, in Hz.
    public static let band: ClosedRange<Double> = 3...12
    /// The fewest readings measured.
    public static let minimumReadings = 20
    /// The shortest span of readings measured, in seconds.
    public static let minimumSpan = 1.5
    /// The spacing of the periodogram's frequencies, in Hz.
    static let resolution = 0.01

    /// Creates the analyzer.
    public init() {}

    /// The measures of a pose recorded as `deviceMotion` and `accelerometer` (either may be nil or empty).
    public func measures(deviceMotion: [DeviceMotionSample]?, accelerometer: [AccelerometerSample]?) -> Measures? {
        if let motion = deviceMotion, motion.count >= Self.minimumReadings {
            return measures(of: motion.map { ($0.timestamp, $0.userAcceleration) })
        }
        return measures(of: (accelerometer ?? []).map { ($0.timestamp, $0.acceleration) })
    }

    /// The measures of accelerations (g) at rising `time`s (seconds).
    public func measures(of readings: [(time: Double, acceleration: MotionVector)]) -> Measures? {
        guard readings.count >= Self.minimumReadings, let first = readings.first?.time, let last = readings.last?.time,
              last - first >= Self.minimumSpan else { return nil }
        let n = Double(readings.count)
        let mean = readings.reduce(into: [0.0, 0, 0]) { sum, reading in
            sum[0] += reading.acceleration.x / n; sum[1] += reading.acceleration.y / n; sum[2] += reading.acceleration.z / n
        }
        let centred = readings.map { [$0.acceleration.x - mean[0], $0.acceleration.y - mean[1], $0.acceleration.z - mean[2]] }
        let axis = Self.principalAxis(centred)
        let times = readings.map { $0.time - first }
        let signal = centred.map { $0[0] * axis[0] + $0[1] * axis[1] + $0[2] * axis[2] }
        let variance = signal.reduce(0) { $0 + $1 * $1 } / n
        guard variance > 0 else { return nil }
        let spacings = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        let median = spacings[spacings.count / 2]
        guard median > 0 else { return nil }
        let upper = min(Self.band.upperBound, 0.5 / median)
        guard upper > Self.band.lowerBound + 2 * Self.resolution else { return nil }
        let count = Int(((upper - Self.band.lowerBound) / Self.resolution).rounded(.down))
        let frequencies = (0...count).map { Self.band.lowerBound + Double($0) * Self.resolution }
        let powers = frequencies.map { Self.fit(times, signal, frequency: $0).power }
        guard let peak = powers.indices.max(by: { powers[$0] < powers[$1] }) else { return nil }
        var frequency = frequencies[peak]
        if peak > 0, peak < powers.count - 1 {
            let (a, b, c) = (powers[peak - 1], powers[peak], powers[peak + 1])
            let denominator = a - 2 * b + c
            if denominator < 0 { frequency += Self.resolution * 0.5 * (a - c) / denominator }
        }
        let fitted = Self.fit(times, signal, frequency: frequency)
        return Measures(dominantFrequency: frequency, amplitude: fitted.amplitude, bandShare: min(100, 100 * fitted.power / (n * variance)))
    }

    /// The least-squares fit of `a cos(ωt) + b sin(ωt)` to `signal` (Lomb–Scargle's, with its time offset τ that makes
    /// the two terms orthogonal): the sum of squares it explains, and its amplitude √(a² + b²).
    static func fit(_ times: [Double], _ signal: [Double], frequency: Double) -> (power: Double, amplitude: Double) {
        let omega = 2 * Double.pi * frequency
        var sin2 = 0.0, cos2 = 0.0
        for t in times { sin2 += sin(2 * omega * t); cos2 += cos(2 * omega * t) }
        let tau = atan2(sin2, cos2) / (2 * omega)
        var yc = 0.0, ys = 0.0, cc = 0.0, ss = 0.0
        for (t, y) in zip(times, signal) {
            let c = cos(omega * (t - tau)), s = sin(omega * (t - tau))
            yc += y * c; ys += y * s; cc += c * c; ss += s * s
        }
        let a = cc > 0 ? yc / cc : 0, b = ss > 0 ? ys / ss : 0
        return (a * yc + b * ys, (a * a + b * b).squareRoot())
    }

    /// The unit vector along which `rows` (centred x, y, z) vary most: the covariance's leading eigenvector, by power
    /// iteration from the axis of largest variance.
    static func principalAxis(_ rows: [[Double]]) -> [Double] {
        var covariance = Array(repeating: Array(repeating: 0.0, count: 3), count: 3)
        for row in rows { for i in 0..<3 { for j in 0..<3 { covariance[i][j] += row[i] * row[j] } } }
        let start = (0..<3).max { covariance[$0][$0] < covariance[$1][$1] } ?? 0
        var vector = [0.0, 0, 0]
        vector[start] = 1
        for _ in 0..<100 {
            var next = (0..<3).map { i in (0..<3).reduce(0.0) { $0 + covariance[i][$1] * vector[$1] } }
            let length = (next[0] * next[0] + next[1] * next[1] + next[2] * next[2]).squareRoot()
            guard length > 0 else { break }
            next = next.map { $0 / length }
            let change = zip(next, vector).reduce(0.0) { $0 + abs($1.0 - $1.1) }
            vector = next
            if change < 1e-12 { break }
        }
        return vector
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["dominantFrequency", "amplitude", "bandShare"]

    /// `measures` in the order of ``measureNames``, with their units; all nil without measures.
    public static func list(_ measures: Measures?) -> [(identifier: String, value: Double?, units: String?)] {
        guard let measures else { return zip(measureNames, ["Hz", "g", "%"]).map { ($0, nil, $1) } }
        return [("dominantFrequency", (measures.dominantFrequency * 100).rounded() / 100, "Hz"),
                ("amplitude", (measures.amplitude * 100_000).rounded() / 100_000, "g"),
                ("bandShare", (measures.bandShare * 10).rounded() / 10, "%")]
    }
}
