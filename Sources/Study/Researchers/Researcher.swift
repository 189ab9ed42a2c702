import Foundation

/// A member of the study team who signs in to the console: an email address, a role, and a password they set
/// themselves from a one-time link (the store keeps only its bcrypt hash).
public struct Researcher: Hashable, Sendable, Identifiable {
    /// Identifies the researcher in sessions, links and the audit trail.
    public var id: UUID
    /// The address they sign in with, as ``normalizedEmail(_:)`` writes it.
    public var email: String
    /// What they may do.
    public var role: ResearcherRole
    /// When they were added.
    public var createdAt: Date
    /// The bcrypt hash of their password; nil until they set one from their link.
    public var passwordHash: String?
    /// Wrong passwords since the last sign-in or lock-out, as files from before study store migration v5 counted
    /// them per account; no longer written (``ResearcherStore/recordFailedSignIn(email:client:pauseAfter:pauseFor:)``
    /// counts per address and client together, so a stranger cannot lock a researcher out).
    public var failedSignIns: Int
    /// Until when signing in was refused, as files from before study store migration v5 locked whole accounts; no
    /// longer written or obeyed.
    public var lockedUntil: Date?
    /// When an admin removed them; nil while they may sign in.
    public var removedAt: Date?

    /// Creates a researcher record; see the properties for each part.
    public init(id: UUID, email: String, role: ResearcherRole, createdAt: Date, passwordHash: String? = nil, failedSignIns: Int = 0,
                lockedUntil: Date? = nil, removedAt: Date? = nil) {
        self.id = id
        self.email = email
        self.role = role
        self.createdAt = createdAt
        self.passwordHash = passwordHash
        self.failedSignIns = failedSignIns
        self.lockedUntil = lockedUntil
        self.removedAt = removedAt
    }

    /// An email address as it is stored and looked up: trimmed and lower-cased, so that `Ana@Example.org ` and
    /// `ana@example.org` are one researcher.
    public static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Why `email` is not an address to add, or nil when it is one: something before and after one `@`, a dot in the
    /// domain, at most 254 characters, and no white space, control or bidirectional characters.
    public static func problem(withEmail email: String) -> String? {
        let email = normalizedEmail(email)
        guard !email.isEmpty else { return "the email address is empty" }
        guard email.utf8.count <= 254 else { return "the email address is longer than 254 bytes" }
        if let bad = email.unicodeScalars.first(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control
            || $0.properties.generalCategory == .format }) {
            return "the email address holds the character U+\(String(bad.value, radix: 16, uppercase: true))"
        }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else {
            return "'\(email)' is not an email address (name@example.org)"
        }
        return nil
    }
}

/// What a researcher may do, as the issue's roles describe it: viewers read; investigators also countersign
/// consents and manage invitations and withdrawals; admins also manage researchers.
public enum ResearcherRole: String, CaseIterable, Codable, Sendable, Comparable {
    case viewer, investigator, admin

    /// Whether this role may do `action`.
    public func allows(_ action: ResearcherPermission) -> Bool {
        switch action {
        case .readStudyData, .exportData: true
        case .countersignConsent, .manageInvitations, .recordWithdrawal: self >= .investigator
        case .manageResearchers: self == .admin
        }
    }

    public static func < (lhs: ResearcherRole, rhs: ResearcherRole) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Something a console route does, which a role allows or not (``ResearcherRole/allows(_:)``).
public enum ResearcherPermission: String, CaseIterable, Sendable {
    /// See enrolment, participants, their consent records, runs, answers and outcomes.
    case readStudyData
    /// Take the study's data out in any export format.
    case exportData
    /// Countersign a participant's consent where the study asks for it.
    case countersignConsent
    /// Create, revoke and print invitations.
    case manageInvitations
    /// Record a participant's withdrawal.
    case recordWithdrawal
    /// Add researchers, change their roles, remove them.
    case manageResearchers
}
