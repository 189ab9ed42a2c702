import Testing
@testable import StudyWeb

@Suite("Accept-Language")
struct LanguagePreferenceTests {
    let supported = ["en", "zh-Hans", "ja", "ko", "es"]

    @Test func highestQualityThatIsSupportedWins() {
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "fr-CH, fr;q=0.9, ja;q=0.8, en;q=0.7", supported: supported) == "ja")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "en;q=0.5, ko;q=0.9", supported: supported) == "ko")
    }

    @Test func equalQualitiesKeepTheHeaderOrder() {
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "es, en", supported: supported) == "es")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "es;q=0.8, en;q=0.8", supported: supported) == "es")
    }

    @Test func rangesAreTruncatedAndChineseMapsToSimplified() {
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "es-MX", supported: supported) == "es")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "zh-CN,zh;q=0.9", supported: supported) == "zh-Hans")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "zh-Hans-CN", supported: supported) == "zh-Hans")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "ZH-hans", supported: supported) == "zh-Hans")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "zh-TW", supported: supported) == nil)
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "en", supported: ["en-GB", "ja"]) == "en-GB")
    }

    @Test func zeroQualityAndGarbageAreLeftOut() {
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "ja;q=0, en;q=0.1", supported: supported) == "en")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "ja;q=high, ko;q=2, es", supported: supported) == "es")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: ",,;q=1, ", supported: supported) == nil)
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "fr, de", supported: supported) == nil)
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: nil, supported: supported) == nil)
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "fr, *;q=0.5", supported: supported) == "en")
    }

    /// Anyone can send any header: an enormous range is left out, and only the first ranges are read.
    @Test func hugeHeadersAreReadOnlyInPart() {
        let supported = ["en", "ja"]
        let huge = Array(repeating: "a", count: 40_000).joined(separator: "-")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: huge, supported: supported) == nil)
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: huge + ", ja", supported: supported) == "ja")
        let many = Array(repeating: "fr", count: LanguagePreference.maximumRanges).joined(separator: ", ")
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: many + ", ja", supported: supported) == nil)
        #expect(LanguagePreference.preferredLanguage(acceptLanguage: "ja, " + many, supported: supported) == "ja")
    }
}
