/// An open, signed-in SMTP connection over which any number of messages are sent one after another, as
/// ``SMTPClient/withSession(isolation:_:)`` gives it. Sends from several tasks wait for each other's turn.
///
/// A message the server refuses (a 4xx or 5xx reply) leaves the session usable for the next one; a connection that
/// failed (closed, timed out) fails every later send with ``SMTPError/Kind/connectionClosed`` or its own error.
public actor SMTPSession {
    private let connection: SMTPConnection
    private var isBusy = false
    private var waitingForTurn: [CheckedContinuation<Void, Never>] = []
    private var isClosed = false

    init(connection: SMTPConnection) { self.connection = connection }

    /// Sends `message`: MAIL FROM, RCPT TO for each recipient, DATA, the message itself. Every recipient must be
    /// accepted, or none gets it (the transaction is reset).
    public func send(_ message: MailMessage) async throws(SMTPError) {
        await waitForTurn()
        defer { endTurn() }
        guard !isClosed else { throw SMTPError(kind: .connectionClosed, command: .mailFrom, detail: "the session has ended") }
        do throws(SMTPError) {
            try await connection.command("MAIL FROM:<\(message.from.address)>", as: .mailFrom, expecting: 2)
            for recipient in message.to {
                try await connection.command("RCPT TO:<\(recipient)>", as: .rcptTo(recipient), expecting: 2)
            }
            try await connection.command("DATA", as: .data, expecting: 3)
            try await connection.sendContent(message.rendered())
        } catch {
            if error.kind == .rejected || error.kind == .unexpectedReply {
                // The server is still listening: clear the transaction for the next message.
                _ = try? await connection.command("RSET", as: .reset, expecting: 2)
            }
            throw error
        }
    }

    /// Says QUIT (its failure does not matter: the messages were accepted) and closes the connection.
    func close() async {
        await waitForTurn()
        defer { endTurn() }
        guard !isClosed else { return }
        isClosed = true
        _ = try? await connection.command("QUIT", as: .quit, expecting: 2)
        await connection.close()
    }

    private func waitForTurn() async {
        guard isBusy else {
            isBusy = true
            return
        }
        await withCheckedContinuation { waitingForTurn.append($0) }
    }

    /// Hands the connection to the next waiting send, if any.
    private func endTurn() {
        if waitingForTurn.isEmpty {
            isBusy = false
        } else {
            waitingForTurn.removeFirst().resume()
        }
    }
}
