import JSONDiagnostics

/// A setting of an active task that cannot be used: its name as a study file writes it (`duration`, `hands`) as the
/// path, and what is wrong with it.
///
/// ```swift
/// do { _ = try TappingTask.twoFingerInterval(identifier: "tapping", duration: 0) }
/// catch { print(error) }   // duration: must be between 5 and 300 seconds (0)
/// ```
public typealias ActiveTaskSettingsError = DocumentProblem

/// Samples posted for an active step that cannot be kept: where in the posted document (`samples[3].timestamp`,
/// empty for the document as a whole), and what is wrong there.
public typealias ActiveSamplesError = DocumentProblem
