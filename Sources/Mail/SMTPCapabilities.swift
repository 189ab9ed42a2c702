/// What a server offers, read from the lines of its EHLO reply after the first (RFC 5321 §4.1.1.1).
struct SMTPCapabilities {
    /// The extensions' keywords, in upper case: `STARTTLS`, `AUTH`, `PIPELINING`…
    let keywords: Set<String>
    /// The AUTH mechanisms offered, in upper case: `PLAIN`, `LOGIN`…
    let authMechanisms: Set<String>

    /// The capabilities an EHLO reply lists (`AUTH=PLAIN LOGIN`, an old spelling, counts as `AUTH PLAIN LOGIN`).
    init(ehloReply: SMTPReply) {
        var keywords: Set<String> = [], mechanisms: Set<String> = []
        for line in ehloReply.lines.dropFirst() {
            let words = line.uppercased().split(whereSeparator: { $0 == " " || $0 == "=" }).map(String.init)
            guard let keyword = words.first else { continue }
            keywords.insert(keyword)
            if keyword == "AUTH" { mechanisms.formUnion(words.dropFirst()) }
        }
        self.keywords = keywords
        self.authMechanisms = mechanisms
    }
}
