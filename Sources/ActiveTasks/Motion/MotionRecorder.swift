/// A sensor an active step records while it runs, as ResearchKit's recorders do: each writes one file of the run,
/// `{"items": [...]}`, whose items carry ResearchKit's field names and a `timestamp` in seconds on the step's clock
/// (0 at the frame that first showed the step's test).
///
/// A browser gives these through `DeviceMotionEvent` (about 60 times a second in Chromium and Safari),
/// `DeviceOrientationEvent` (when the orientation changes) and the Geolocation API. The step's module converts them to
/// Core Motion's conventions, so that a file reads as ResearchKit's would:
///
/// - ``accelerometer``: `x`, `y`, `z`, the acceleration including gravity in g (9.80665 m/s²), pointing as Core
///   Motion's does: a phone lying face up reads `z` = −1.
/// - ``deviceMotion``: `attitude` (`x`, `y`, `z`, `w`: the quaternion of the device's orientation in the Earth's frame,
///   from the last `DeviceOrientationEvent`), `rotationRate` (`x`, `y`, `z` in radians per second), `userAcceleration`
///   and `gravity` (`x`, `y`, `z` in g, gravity pointing down as Core Motion's does).
/// - ``orientation``: `alpha`, `beta`, `gamma` in degrees, as `DeviceOrientationEvent` gives them.
/// - ``location``: `coordinate` (`latitude`, `longitude` in degrees), `altitude` (m, or null), `horizontalAccuracy`
///   (m), `speed` (m/s, or null) and `course` (degrees, or null).
public enum MotionRecorder: String, CaseIterable, Hashable, Sendable {
    case accelerometer
    case deviceMotion
    case orientation
    case location

    /// The most items a second a browser can give: more than this was not measured.
    var highestRate: Double {
        switch self {
        case .accelerometer, .deviceMotion, .orientation: 200
        case .location: 10
        }
    }

    /// The name of the file the recorder writes in a run (`deviceMotion` → `deviceMotion.json`, within the step's name).
    public var fileIdentifier: String { rawValue }
}

/// A vector of three components, such as an acceleration in g or a rotation rate in radians per second.
public struct MotionVector: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    /// The vector (`x`, `y`, `z`).
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Its length.
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}

/// A rotation as a unit quaternion (`x`, `y`, `z` the vector part, `w` the scalar part), as Core Motion's
/// `CMQuaternion` and the W3C's `DeviceOrientationEvent` conversion write it.
public struct MotionQuaternion: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double
    public var w: Double

    /// The quaternion (`x`, `y`, `z`, `w`).
    public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.w = w
    }

    /// The rotation that takes the device from `alpha`, `beta`, `gamma` (degrees, `DeviceOrientationEvent`'s intrinsic
    /// Z-X'-Y'' angles) to the Earth's frame.
    public init(alpha: Double, beta: Double, gamma: Double) {
        let radians = Double.pi / 180
        let (c1, s1) = (cos(alpha * radians / 2), sin(alpha * radians / 2))
        let (c2, s2) = (cos(beta * radians / 2), sin(beta * radians / 2))
        let (c3, s3) = (cos(gamma * radians / 2), sin(gamma * radians / 2))
        self.init(x: c1 * s2 * c3 - s1 * c2 * s3, y: c1 * c2 * s3 + s1 * s2 * c3, z: s1 * c2 * c3 + c1 * s2 * s3, w: c1 * c2 * c3 - s1 * s2 * s3)
    }

    /// The inverse rotation (the conjugate, for a unit quaternion).
    public var inverse: MotionQuaternion { MotionQuaternion(x: -x, y: -y, z: -z, w: w) }

    /// This rotation, then `other` (the Hamilton product `self × other`).
    public func multiplied(by other: MotionQuaternion) -> MotionQuaternion {
        MotionQuaternion(x: w * other.x + x * other.w + y * other.z - z * other.y,
                         y: w * other.y - x * other.z + y * other.w + z * other.x,
                         z: w * other.z + x * other.y - y * other.x + z * other.w,
                         w: w * other.w - x * other.x - y * other.y - z * other.z)
    }

    /// How far the device is tilted about its own x axis (its y axis when `aboutY`), in degrees from −180 to 180, read
    /// from where gravity points in the device's frame, so that a turn about the vertical changes nothing: 0 for a
    /// device lying face up, 90 for one held upright facing the user (DeviceOrientationEvent's `beta`), 180 face down.
    public func tiltDegrees(aboutY: Bool = false) -> Double {
        let vertical = 1 - 2 * (x * x + y * y)
        let sine = aboutY ? -2 * (x * z - w * y) : 2 * (y * z + w * x)
        return atan2(sine, vertical) * 180 / .pi
    }

    /// The part of this rotation about the device's x axis (y axis when `aboutY`), in degrees from −180 to 180: the
    /// twist of a swing–twist decomposition, exact for a rotation about that axis alone, and unmoved by a small turn
    /// about another.
    public func twistDegrees(aboutY: Bool = false) -> Double {
        var angle = 2 * atan2(aboutY ? y : x, w) * 180 / .pi
        if angle > 180 { angle -= 360 } else if angle <= -180 { angle += 360 }
        return angle
    }

    /// Its length (1 for a rotation).
    public var norm: Double { (x * x + y * y + z * z + w * w).squareRoot() }
}

import Foundation
