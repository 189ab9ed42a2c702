/// The page where a participant signs in on a second device with the one-time code from their settings.
///
/// The form posts the field `code`; it carries no CSRF token unless the context has one (there is no session yet).
///
/// ```swift
/// let again = SignInPage(formAction: "/signin", error: "That code is not valid any more. Get a new one in Settings.")
/// ```
public struct SignInPage: Sendable {
    /// Where the form posts, such as `/signin`.
    public var formAction: String
    /// Why the last code was refused, shown beside the field; nil for none.
    public var error: String?
    /// Whether codes are digits only: phones then show a number pad. Defaults to false (letters and digits).
    public var numericCode: Bool

    /// Creates a sign-in page; see the properties for each part.
    public init(formAction: String, error: String?, numericCode: Bool = false) {
        self.formAction = formAction
        self.error = error
        self.numericCode = numericCode
    }
}
