/// An address with the name a mail program shows for it: `Recover Study <reminders@study.example.org>`.
public struct MailMailbox: Hashable, Sendable {
    /// The address.
    public let address: MailAddress
    /// The name shown for the address, in any script; `nil` for the bare address.
    public let displayName: String?

    /// The mailbox of `address`, shown as `displayName`. A display name with a line break is refused when the
    /// message is made (``MailMessageError/lineBreakInHeader(field:)``).
    public init(_ address: MailAddress, displayName: String? = nil) {
        self.address = address
        self.displayName = displayName
    }
}
