import Foundation
import HummingbirdBcrypt
import NIOPosix
import Study
import Synchronization

/// The study team's sign-in, without HTTP: passwords checked with bcrypt (off the request's executor), a lock-out
/// after repeated wrong passwords, setting a password from a one-time link, and finding the researcher of a console
/// cookie.
///
/// A wrong address and a wrong password get the same answer in about the same time (an unknown address is checked
/// against a hash of the same cost), so the sign-in form does not tell who has an account.
final class ResearcherAccounts: Sendable {
    let store: any ResearcherStore
    /// bcrypt's cost (log2 of its rounds): 12 on a server, lower in tests.
    let cost: UInt8
    /// Wrong passwords in a row that lock an account.
    let lockAfter = 5
    /// How long a lock-out lasts.
    let lockFor: TimeInterval = 15 * 60
    /// How long a console session lasts.
    static let sessionLifetime: TimeInterval = 12 * 3600
    /// How long a password link works.
    static let linkLifetime: TimeInterval = 7 * 86_400
    /// The shortest password accepted, in characters.
    static let minimumPasswordLength = 12
    /// The longest password accepted, in UTF-8 bytes: bcrypt reads no further, and a longer one would be cut unseen.
    static let maximumPasswordBytes = 72
    /// Wrong passwords limited per client address and server-wide, before any account's own count.
    let attempts = SignInAttemptLimiter()
    /// A hash to check unknown addresses against, so that they take as long as known ones: made at the first sign-in
    /// that needs it, not at every start of the server (bcrypt at cost 12 takes a quarter of a second).
    private let decoy = Mutex<String?>(nil)

    init(store: any ResearcherStore, cost: UInt8) {
        self.store = store
        self.cost = cost
    }

    /// What a sign-in came to.
    enum SignInResult: Sendable {
        case signedIn(IssuedResearcherSession)
        /// Wrong address or password (or an account without a password yet, or removed).
        case refused
        /// Too many wrong passwords for this account, or from this address.
        case paused(until: Date?)
    }

    /// Checks `password` for `email` from `client` at `now`.
    func signIn(email: String, password: String, from client: String, at now: Date) async throws -> SignInResult {
        guard attempts.allowsAttempt(from: client, at: now) else { return .paused(until: nil) }
        let researcher = try await store.researcher(email: email)
        if let researcher, researcher.isLocked(at: now) { return .paused(until: researcher.lockedUntil) }
        let hash = researcher.flatMap { $0.removedAt == nil ? $0.passwordHash : nil }
        let checked: String
        if let hash { checked = hash } else { checked = try await decoyHash() }
        let matches = try await Self.verify(password, hash: checked)
        guard let researcher, hash != nil, matches else {
            attempts.recordFailure(from: client, at: now)
            if let researcher, researcher.removedAt == nil {
                let after = try await store.recordFailedSignIn(researcherID: researcher.id, lockAfter: lockAfter, lockFor: lockFor)
                if after.isLocked(at: now) { return .paused(until: after.lockedUntil) }
            }
            return .refused
        }
        return .signedIn(try await store.createResearcherSession(researcherID: researcher.id, lifetime: Self.sessionLifetime))
    }

    /// Why `password` (typed twice) cannot be a password for `researcher`, or nil when it can.
    static func problem(withPassword password: String, confirmation: String, for researcher: Researcher) -> String? {
        if password != confirmation { return "The two passwords are not the same." }
        if password.count < minimumPasswordLength { return "The password has \(password.count) characters; it needs at least \(minimumPasswordLength)." }
        if password.utf8.count > maximumPasswordBytes {
            return "The password is \(password.utf8.count) bytes long; bcrypt reads only \(maximumPasswordBytes), so it may be at most that."
        }
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) {
            return "The password holds a control or formatting character, which cannot be typed reliably."
        }
        if Researcher.normalizedEmail(password) == researcher.email { return "The password may not be your email address." }
        return ResearcherPasswordRules.problem(with: password, email: researcher.email)
    }

    /// Sets the password of the researcher of a live link; nil when the link is not live.
    func setPassword(_ password: String, linkToken: String) async throws -> Researcher? {
        let cost = cost
        let hash = try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
        return try await store.setPassword(linkToken: linkToken, passwordHash: hash)
    }

    /// The researcher signed in with a console cookie's token, and the session; nil for none, or one no longer valid.
    func signedIn(token: String?) async throws -> (researcher: Researcher, session: ResearcherSession)? {
        guard let token, !token.isEmpty, let session = try await store.researcherSession(token: token),
              let researcher = try await store.researcher(id: session.researcherID), researcher.removedAt == nil else { return nil }
        return (researcher, session)
    }

    /// The decoy hash, made off the request's executor the first time (two first sign-ins at once may both make one).
    private func decoyHash() async throws -> String {
        if let kept = decoy.withLock({ $0 }) { return kept }
        let cost = cost
        let made = try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash("studykit decoy password", cost: cost) }
        decoy.withLock { $0 = $0 ?? made }
        return made
    }

    private static func verify(_ password: String, hash: String) async throws -> Bool {
        // bcrypt reads a C string: a password with a NUL byte would be cut there, so it never matches.
        guard !password.utf8.contains(0) else { return false }
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
