import Testing
@testable import Study

/// NIST SP 800-63B's checks of a chosen password: not common, not a common one with digits added, not one character
/// repeated, not the account's own name.
@Suite struct ResearcherPasswordRulesTests {
    @Test func theListOfCommonPasswordsShipsWithTheModule() throws {
        let common = try #require(ResearcherPasswordRules.commonPasswords)
        #expect(common.count == 3_527)
        #expect(common.contains("password1234") && common.contains("aaaaaaaaaaaa") && common.contains("qwertyuiop"))
        #expect(common.allSatisfy { $0.count >= 10 && $0 == $0.lowercased() })
    }

    @Test(arguments: [
        ("aaaaaaaaaaaa", "The password is one character repeated; choose one that is harder to guess."),
        ("ZZZZZZZZZZZZZZZZ", "The password is one character repeated; choose one that is harder to guess."),
        ("abcabcabcabc", "The password is \"abc\" repeated; choose one that is harder to guess."),
        ("121212121212", "The password is \"12\" repeated; choose one that is harder to guess."),
        ("Password1234", "The password is one of the most common passwords, which are tried first; choose another."),
        ("QWERTYUIOP", "The password is one of the most common passwords, which are tried first; choose another."),
        ("qwertyuiop2024!!", "The password is a common password with digits or symbols added, which is tried early; choose another."),
        ("aaaa!!!!1234", "The password is a common password with digits or symbols added, which is tried early; choose another."),
        ("my name is ana.lopez!", "The password holds your email address's name (ana.lopez); choose one that does not."),
        ("Ana.Lopez-2026-x", "The password holds your email address's name (ana.lopez); choose one that does not."),
    ])
    func anEasilyGuessedPasswordIsRefusedSayingWhy(password: String, problem: String) {
        #expect(ResearcherPasswordRules.problem(with: password, email: "ana.lopez@example.org") == problem)
    }

    @Test(arguments: ["correct horse battery", "lighthouse keeper's log", "seven tired owls", "abcdabcdabcx", "qwertyuiop-is-my-keyboard"])
    func aPasswordHardToGuessIsTaken(password: String) {
        #expect(ResearcherPasswordRules.problem(with: password, email: "ana.lopez@example.org") == nil)
    }

    @Test func aShortLocalPartIsNotLookedForInsideThePassword() {
        #expect(ResearcherPasswordRules.problem(with: "a long walk by the sea", email: "al@example.org") == nil)
        #expect(ResearcherPasswordRules.problem(with: "a long walk by the sea", email: "walk@example.org") != nil)
    }
}
