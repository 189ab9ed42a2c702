/// A user name and password for the server's AUTH. Printing, describing or dumping them never shows the password.
public struct SMTPCredentials: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The user name.
    public let username: String
    /// The password.
    public let password: String

    /// Credentials of `username` with `password`.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `SMTPCredentials(username: "…", password: <redacted>)`.
    public var description: String { "SMTPCredentials(username: \"\(username)\", password: <redacted>)" }

    /// The same as ``description``: the password is not shown.
    public var debugDescription: String { description }

    /// The user name alone, so that `dump` and reflection do not show the password.
    public var customMirror: Mirror { Mirror(self, children: ["username": username, "password": "<redacted>"]) }
}
