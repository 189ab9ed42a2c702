/// How participants join a study.
public enum EnrolmentMode: String, Hashable, Sendable, CaseIterable {
    /// Only with an invitation code (`studykit invite`), each usable once.
    case invitation
    /// Anyone who opens the study's enrolment page.
    case open
}
