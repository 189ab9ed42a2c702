import Foundation
import Mail
import ServiceLifecycle
import Study
import WebPush

/// Sends the reminders that are due, as a service of the application's service group: started with the server, it
/// looks at once and then every ``ReminderSendingConfiguration/checkInterval``, and stops with it (a round in progress
/// ends first). Each round reads what is due (``ReminderDueList``, from the care store), claims each delivery in the
/// database before sending it (``ReminderStore/claimReminderDelivery(for:channel:at:holdingFor:)``: of several
/// processes one sends it), sends mail over one SMTP connection and push one request each, and settles every claim:
/// sent, retrying after a temporary failure (1, 5, then 15 minutes later), or failed (a permanent failure, or the
/// fourth temporary one), with the server's answer. A push subscription its service says is gone is removed.
///
/// If the process dies between claiming and settling, the claim lapses after
/// ``ReminderSendingConfiguration/claimDuration`` and another round sends it again: the one message in flight (taken by
/// the mail server or push service, not yet settled) may then arrive twice. Nothing else is sent twice, and nothing is
/// lost: a claim that lapses is always taken again while its event is open.
struct ReminderSendingService: Service {
    let service: StudyService

    /// How long after each temporary failure the next attempt comes; after the last, the delivery fails.
    static let retryDelays: [TimeInterval] = [60, 300, 900]

    func run() async throws {
        let (ticks, tick) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let interval = service.configuration.reminders.checkInterval
        let timer = Task {
            while !Task.isCancelled {
                tick.yield()
                try? await Task.sleep(for: interval)
            }
        }
        defer { timer.cancel() }
        await withGracefulShutdownHandler {
            // The first round is reported whatever it found, and so is the first with nothing due after one that had.
            var reportNothingDue = true
            for await _ in ticks {
                reportNothingDue = await sendDue(reportingNothingDue: reportNothingDue) > 0
            }
        } onGracefulShutdown: {
            tick.finish()
        }
    }

    /// One round: what is due now, claimed, sent and settled. Reports the round on standard output when anything was
    /// due or failed, or with `reportingNothingDue`; returns how many deliveries were due.
    @discardableResult
    func sendDue(reportingNothingDue: Bool = false) async -> Int {
        let now = service.environment.now()
        let round = await AuditTrail.$source.withValue(AuditSource(actor: "reminder sender", reason: "reminders due")) {
            await sendDue(at: now)
        }
        guard round.due > 0 || round.failure != nil || reportingNothingDue else { return 0 }
        var line = "reminders at \(now.formatted(.iso8601)): \(round.due) due, \(round.sent) sent, \(round.retrying) to retry, "
            + "\(round.failed) failed, \(round.skipped) skipped"
        if let failure = round.failure { line += "; \(failure)" }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
        return round.due
    }

    /// What a round did.
    struct Round {
        var due = 0, sent = 0, retrying = 0, failed = 0, skipped = 0
        var failure: String?
    }

    private func sendDue(at now: Date) async -> Round {
        var round = Round()
        let store = service.store
        let due: [DueDelivery]
        do {
            due = try await ReminderDueList(study: service.study, data: service.data).deliveries(at: now)
        } catch {
            round.failure = "the reminders due could not be read: \(error)"
            return round
        }
        round.due = due.count
        var mails: [(claim: ReminderDelivery, message: MailMessage)] = []
        for delivery in due {
            let claim: ReminderDelivery
            do {
                guard let claimed = try await store.claimReminderDelivery(for: delivery.due, channel: delivery.channel, at: now,
                                                                          holdingFor: service.configuration.reminders.claimDuration) else { continue }
                claim = claimed
            } catch {
                round.failure = "a delivery could not be claimed: \(error)"
                continue
            }
            switch delivery.channel.kind {
            case .email:
                guard service.mailer != nil else {
                    await settle(claim, .skipped, "the server sends no mail", &round)
                    continue
                }
                do {
                    mails.append((claim, try service.reminderMessages.reminderMail(delivery)))
                } catch {
                    await settle(claim, .failed, "the message could not be written: \(error)", &round)
                }
            case .push:
                await sendPush(delivery, claim: claim, &round)
            case .calendar:
                await settle(claim, .skipped, "a calendar feed is read, not sent to", &round)
            }
        }
        if let mailer = service.mailer, !mails.isEmpty {
            // Each settled as soon as the mail server answers: a process killed mid-round leaves at most the one
            // message in flight unsettled (it is sent again when its claim lapses).
            await mailer.sendAll(mails.map(\.message)) { index, error in
                let claim = mails[index].claim
                if let error {
                    await settle(claim, error.isTemporary ? .retrying : .failed, error.description, &round)
                } else {
                    await settle(claim, .sent, "accepted by the mail server", &round)
                }
            }
        }
        return round
    }

    private func sendPush(_ delivery: DueDelivery, claim: ReminderDelivery, _ round: inout Round) async {
        guard let sender = service.pushSender, let key = service.vapidKey, let push = service.configuration.reminders.push else {
            await settle(claim, .skipped, "the server sends no push", &round)
            return
        }
        let message: WebPushMessage
        do {
            guard let endpoint = delivery.channel.address, let keysText = delivery.channel.pushKeys,
                  let keys = try JSONSerialization.jsonObject(with: Data(keysText.utf8)) as? [String: String],
                  let p256dh = keys["p256dh"], let auth = keys["auth"] else {
                throw StudyServerError.malformed("the stored subscription has no endpoint or keys")
            }
            let subscription = try PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth,
                                                    allowInsecureEndpoints: !push.policy.allowedOrigins.isEmpty)
            // Kept by the push service while the event is open, at most a day.
            let timeToLive = max(60, min(86_400, Int(delivery.due.eventEnd.timeIntervalSince(service.environment.now()))))
            message = try WebPushMessage(payload: try service.reminderMessages.pushPayload(delivery), for: subscription, key: key,
                                         subject: push.subject, now: service.environment.now(), timeToLive: timeToLive,
                                         randomBytes: service.environment.randomBytes)
        } catch {
            await settle(claim, .failed, "the push message could not be written: \(error)", &round)
            return
        }
        let answer = await sender.send(message)
        switch answer {
        case .delivered:
            await settle(claim, .sent, answer.description, &round)
        case .subscriptionGone:
            _ = try? await service.store.removeReminderChannel(id: delivery.channel.id, participantID: delivery.channel.participantID)
            await settle(claim, .failed, "the subscription is gone (removed): \(answer.description)", &round)
        case .permanentFailure:
            await settle(claim, .failed, answer.description, &round)
        case .temporaryFailure(_, let retryAfter, _):
            await settle(claim, .retrying, answer.description, &round, retryAfter: retryAfter)
        }
    }

    /// Settles a claim; a temporary failure past the last retry fails for good.
    private func settle(_ claim: ReminderDelivery, _ state: ReminderDelivery.State, _ detail: String, _ round: inout Round,
                        retryAfter: Date? = nil) async {
        let now = service.environment.now()
        var state = state, detail = detail, next: Date?
        if state == .retrying {
            if claim.attempts > Self.retryDelays.count {
                state = .failed
                detail = "gave up after \(claim.attempts) attempts: \(detail)"
            } else {
                next = max(retryAfter ?? .distantPast, now.addingTimeInterval(Self.retryDelays[claim.attempts - 1]))
            }
        }
        do {
            _ = try await service.store.settleReminderDelivery(claim, as: state, detail: detail, nextAttemptAt: next, at: now)
        } catch {
            round.failure = "a delivery could not be settled: \(error)"
        }
        switch state {
        case .sent: round.sent += 1
        case .retrying: round.retrying += 1
        case .failed: round.failed += 1
        case .skipped: round.skipped += 1
        case .sending: break
        }
    }
}
