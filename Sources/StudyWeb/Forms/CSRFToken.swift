/// The check of the CSRF token that every form a signed-in participant posts carries in a hidden field.
///
/// ```swift
/// guard CSRFToken.isPosted(in: form, expected: session.csrfToken) else { /* 403, nothing changed */ }
/// ```
public enum CSRFToken {
    /// The name of the hidden field with the token.
    public static let fieldName = "_csrf"

    /// Whether `form` has exactly one token field, equal to `expected`.
    public static func isPosted(in form: [String: [String]], expected: String) -> Bool {
        guard let posted = form[fieldName], posted.count == 1 else { return false }
        return matches(posted[0], expected: expected)
    }

    /// Whether `posted` equals `expected`, compared in time that does not depend on where they differ; an empty
    /// expected token matches nothing.
    public static func matches(_ posted: String?, expected: String) -> Bool {
        guard let posted else { return false }
        let given = Array(posted.utf8), wanted = Array(expected.utf8)
        guard given.count == wanted.count, !wanted.isEmpty else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, wanted) { difference |= a ^ b }
        return difference == 0
    }
}
