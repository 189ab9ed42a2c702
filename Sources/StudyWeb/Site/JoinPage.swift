/// The page an invitation link opens: the study's welcome and a form to join it with one's time zone.
///
/// The form carries no CSRF token unless the context has one (there is no session yet): the server checks the
/// invitation code in `formAction`. The script preselects the browser's own time zone when the list has it.
///
/// ```swift
/// let page = JoinPage(formAction: "/join/K7Q2-9XPL", welcome: "Thank you for your interest in Recover.",
///                     timeZones: TimeZone.knownTimeZoneIdentifiers, defaultTimeZone: "Europe/London")
/// ```
public struct JoinPage: Sendable {
    /// Where the form posts its `timeZone` field, such as `/join/K7Q2-9XPL`.
    public var formAction: String
    /// The study's welcome text; each line is a paragraph. Nil for none.
    public var welcome: String?
    /// The time zones to choose from, as IANA identifiers (`Asia/Tokyo`), in the order to list them.
    public var timeZones: [String]
    /// The zone selected without the script (the study's own); added at the top when the list lacks it.
    public var defaultTimeZone: String

    /// Creates a join page; see the properties for each part.
    public init(formAction: String, welcome: String?, timeZones: [String], defaultTimeZone: String) {
        self.formAction = formAction
        self.welcome = welcome
        self.timeZones = timeZones
        self.defaultTimeZone = defaultTimeZone
    }
}
