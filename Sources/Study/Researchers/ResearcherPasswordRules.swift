import Foundation

/// What NIST SP 800-63B (5.1.1.2) asks of a chosen password beyond its length: that it is not one attackers try
/// first. A researcher's password is refused when, compared without regard to case, it is
///
/// - one of the common passwords of ``commonPasswords`` (`common-passwords.txt`, shipped with the module: the 3,527
///   passwords of 10 or more characters among the 50,000 most common passwords of at least 8 characters in the
///   10-million-password list of SecLists, one a line; shorter ones fail the length check anyway);
/// - such a password with digits or symbols added at its end (`qwertyuiop2024!`);
/// - one character, or a run of up to four, repeated (`aaaaaaaaaaaa`, `abcabcabcabc`);
/// - or holds the local part of the researcher's email address (the part before `@`, when it has 3 characters or more).
///
/// ```swift
/// ResearcherPasswordRules.problem(with: "aaaaaaaaaaaa", email: "ada@example.org")
/// // "The password is one character repeated; choose one that is harder to guess."
/// ```
///
/// The length, byte and character checks are the console's (StudyServer's `ResearcherAccounts`), which asks these
/// rules last.
public enum ResearcherPasswordRules {
    /// The name of the list of common passwords in the module's resources.
    public static let listName = "common-passwords.txt"

    /// The common passwords, lowercased; nil when the list is missing from this installation (every password is then
    /// refused, rather than checked less than the README says).
    public static let commonPasswords: Set<String>? = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        return Set(text.split(whereSeparator: \.isNewline).map { $0.lowercased() })
    }()

    /// The longest run that, repeated, makes a password refused: `abcd` in `abcdabcdabcd`.
    public static let longestRepeatedRun = 4

    /// The shortest local part of an email address that a password may not hold.
    public static let shortestLocalPart = 3

    /// Why `password` is too easy to guess for the researcher whose address is `email`, as a sentence to show them;
    /// nil when it is not.
    public static func problem(with password: String, email: String) -> String? {
        let lowered = password.lowercased()
        if let run = repeatedRun(in: lowered) {
            return run.count == 1 ? "The password is one character repeated; choose one that is harder to guess."
                : "The password is \"\(run)\" repeated; choose one that is harder to guess."
        }
        let localPart = email.split(separator: "@", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        if localPart.count >= shortestLocalPart, lowered.contains(localPart) {
            return "The password holds your email address's name (\(localPart)); choose one that does not."
        }
        guard let common = commonPasswords else {
            return "The list of common passwords (\(listName)) is missing from this installation, so no password can be checked; reinstall StudyKit."
        }
        if common.contains(lowered) {
            return "The password is one of the most common passwords, which are tried first; choose another."
        }
        var scalars = Array(lowered.unicodeScalars)
        while let last = scalars.last, !CharacterSet.letters.contains(last) { scalars.removeLast() }
        let stem = String(String.UnicodeScalarView(scalars))
        if stem != lowered, common.contains(stem) || repeatedRun(in: stem) != nil {
            return "The password is a common password with digits or symbols added, which is tried early; choose another."
        }
        return nil
    }

    /// The run of at most ``longestRepeatedRun`` characters that `text` (of at least two runs) repeats, whole; nil when it
    /// is not one.
    static func repeatedRun(in text: String) -> String? {
        let characters = Array(text)
        guard characters.count >= 2 else { return nil }
        for length in 1...min(longestRepeatedRun, characters.count / 2) where characters.count % length == 0 {
            let run = characters[0..<length]
            if stride(from: length, to: characters.count, by: length).allSatisfy({ characters[$0..<$0 + length] == run }) {
                return String(run)
            }
        }
        return nil
    }
}
