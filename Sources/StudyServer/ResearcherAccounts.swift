import Foundation
import HummingbirdBcrypt
import NIOPosix
import Study
import Synchronization

/// The study team's sign-in, without HTTP: passwords checked with bcrypt (off the request's executor), sign-in paused
/// after repeated wrong passwords, setting a password from a one-time link, and finding the researcher of a console
/// cookie.
///
/// An address that is no researcher's and a wrong password get the same answer, by the same steps: an unknown
/// address is checked against a decoy hash of the same cost, and its wrong passwords are counted and paused exactly
/// like a real account's. So neither the answer (status, page) nor its time tells who has an account.
///
/// Wrong passwords are counted per address tried and client address together
/// (``ResearcherStore/recordFailedSignIn(email:client:pauseAfter:pauseFor:)``, rows in the study's database, so that
/// every server process over it counts alike): the ``pauseAfter``th within ``pauseFor`` of the one before pauses
/// signing in as that address from that client for ``pauseFor``. A stranger guessing one researcher's password from
/// one place pauses only themselves: the researcher still signs in from anywhere else. Before that, wrong passwords
/// are limited per client address and server-wide (``attempts``, its buckets in the study's database too), so that one
/// place cannot try many accounts quickly either, however many server processes it spreads its tries over. The researcher is told, on the console's first page after signing in, how many
/// wrong passwords were tried for their address since their last sign-in, and when
/// (``Study/ResearcherSession/failedSignInsBefore``).
final class ResearcherAccounts: Sendable {
    let store: any ResearcherStore
    /// bcrypt's cost (log2 of its rounds): 12 on a server, lower in tests.
    let cost: UInt8
    /// Wrong passwords for one address from one client that pause signing in as it from there.
    let pauseAfter = 5
    /// How long a pause lasts, and how long a wrong password counts toward one.
    let pauseFor: TimeInterval = 15 * 60
    /// How long a console session lasts.
    static let sessionLifetime: TimeInterval = 12 * 3600
    /// The shortest password accepted, in characters.
    static let minimumPasswordLength = 12
    /// The longest password accepted, in UTF-8 bytes: bcrypt reads no further, and a longer one would be cut unseen.
    static let maximumPasswordBytes = 72
    /// Wrong passwords limited per client address and server-wide, before any count per address tried.
    let attempts: SignInAttemptLimiter
    /// A hash to check unknown addresses against, so that they take as long as known ones: made at the first sign-in
    /// that needs it, not at every start of the server (bcrypt at cost 12 takes a quarter of a second).
    private let decoy = Mutex<String?>(nil)

    /// Accounts in `store`, wrong passwords limited by `attempts`, passwords hashed at bcrypt cost `cost`.
    init(store: any ResearcherStore, attempts: SignInAttemptLimiter, cost: UInt8) {
        self.store = store
        self.attempts = attempts
        self.cost = cost
    }

    /// What a sign-in came to.
    enum SignInResult: Sendable {
        case signedIn(IssuedResearcherSession)
        /// Wrong address or password (or an account without a password yet, or removed).
        case refused
        /// Too many wrong passwords for this address from this client (with until when), or from this client at all.
        case paused(until: Date?)
    }

    /// Checks `password` for `email` from `client` at `now`.
    func signIn(email: String, password: String, from client: String, at now: Date) async throws -> SignInResult {
        guard try await attempts.allowsAttempt(from: client, at: now) else { return .paused(until: nil) }
        if let until = try await store.signInPause(email: email, client: client) { return .paused(until: until) }
        let researcher = try await store.researcher(email: email)
        let hash = researcher.flatMap { $0.removedAt == nil ? $0.passwordHash : nil }
        let checked: String
        if let hash { checked = hash } else { checked = try await decoyHash() }
        let matches = try await Self.verify(password, hash: checked)
        guard let researcher, hash != nil, matches else {
            // The same steps whether or not the address is a researcher's.
            try await attempts.recordFailure(from: client, at: now)
            if let until = try await store.recordFailedSignIn(email: email, client: client, pauseAfter: pauseAfter, pauseFor: pauseFor) {
                return .paused(until: until)
            }
            return .refused
        }
        return .signedIn(try await store.createResearcherSession(researcherID: researcher.id, lifetime: Self.sessionLifetime, client: client))
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
