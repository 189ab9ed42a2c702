import Testing
import StudyWeb

@Suite("CSRF token check")
struct CSRFTokenTests {
    let token = "k2hR0n7Qe9oYxq3VbW5zL1aF8cJtUiPm"

    @Test func exactlyOneEqualTokenPasses() {
        #expect(CSRFToken.isPosted(in: ["_csrf": [token], "language": ["ja"]], expected: token))
    }

    @Test func aMissingRepeatedOrDifferentTokenFails() {
        #expect(!CSRFToken.isPosted(in: ["language": ["ja"]], expected: token))
        #expect(!CSRFToken.isPosted(in: ["_csrf": [token, token]], expected: token))
        #expect(!CSRFToken.isPosted(in: ["_csrf": [String(token.dropLast()) + "n"]], expected: token))
        #expect(!CSRFToken.isPosted(in: ["_csrf": [token + "x"]], expected: token))
        #expect(!CSRFToken.isPosted(in: ["_csrf": [""]], expected: token))
        // An empty expected token (no session) matches nothing, not even an empty field.
        #expect(!CSRFToken.isPosted(in: ["_csrf": [""]], expected: ""))
        #expect(!CSRFToken.matches(nil, expected: token))
    }
}
