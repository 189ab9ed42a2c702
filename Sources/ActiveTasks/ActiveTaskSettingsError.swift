/// A setting of an active task that cannot be used: which setting, and what is wrong with it.
///
/// ```swift
/// do { _ = try TappingTask.twoFingerInterval(identifier: "tapping", duration: 0) }
/// catch { print(error) }   // duration: must be between 5 and 300 seconds (0)
/// ```
public struct ActiveTaskSettingsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The setting's name, as a study file writes it (`duration`, `hands`).
    public var setting: String
    /// What is wrong with it.
    public var message: String

    /// Creates an error about `setting`.
    public init(setting: String, message: String) {
        self.setting = setting
        self.message = message
    }

    public var description: String { "\(setting): \(message)" }
}

/// Samples posted for an active step that cannot be kept: where in the posted document, and what is wrong.
///
/// ```swift
/// // samples[3].timestamp: must not be before the sample before it (1.25 < 1.5)
/// ```
public struct ActiveSamplesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the posted document, as a path (`samples[3].timestamp`); empty for the document as a whole.
    public var path: String
    /// What is wrong there.
    public var message: String

    /// Creates an error at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
