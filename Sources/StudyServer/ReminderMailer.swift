import Foundation
import Mail

/// Submits the server's mail through its SMTP server: one message (an address's confirmation), or a batch over one
/// connection (a round of reminders), each message's outcome told apart.
struct ReminderMailer: Sendable {
    let client: SMTPClient

    init(configuration: SMTPConfiguration) {
        client = SMTPClient(configuration: configuration)
    }

    /// Sends `message` on a connection of its own.
    func send(_ message: MailMessage) async throws(SMTPError) {
        try await client.send(message)
    }

    /// Sends `messages` in order over one connection, calling `settle` with each one's outcome as soon as it is known:
    /// nil when the server took it, else the error. When the connection itself fails, every message not yet sent gets
    /// that error.
    func sendAll(_ messages: [MailMessage], settle: (Int, SMTPError?) async -> Void) async {
        guard !messages.isEmpty else { return }
        var next = 0
        do {
            try await client.withSession { session in
                while next < messages.count {
                    let index = next
                    next += 1
                    do throws(SMTPError) {
                        try await session.send(messages[index])
                        await settle(index, nil)
                    } catch {
                        await settle(index, error)
                        // A refused message leaves the connection usable; anything else ends the batch.
                        if error.kind != .rejected { throw error }
                    }
                }
            }
        } catch {
            let failure = error as? SMTPError ?? SMTPError(kind: .connectionClosed, command: .connect, detail: "\(error)")
            while next < messages.count {
                await settle(next, failure)
                next += 1
            }
        }
    }
}
