import Research
import Testing

/// One fallback order for the consent document's strings, the web pages' strings and the study's languages.
@Suite("Language tags and their fallback")
struct LanguageTagTests {
    @Test(arguments: [
        ("ja_jp", "ja-JP"), ("ZH-hans-cn", "zh-Hans-CN"), ("es-419", "es-419"), ("en-gb", "en-GB"), (" ko ", "ko"),
    ])
    func tagsTakeTheirUsualCase(_ text: String, _ expected: String) {
        #expect(LanguageTag(text).description == expected)
    }

    @Test(arguments: [
        // Mainland and Singapore Chinese go through Simplified, then bare Chinese.
        ("zh-CN", ["zh-CN", "zh-Hans", "zh"]),
        ("zh-SG", ["zh-SG", "zh-Hans", "zh"]),
        ("zh-Hans-CN", ["zh-Hans-CN", "zh-Hans", "zh"]),
        ("zh-Hans", ["zh-Hans", "zh"]),
        ("zh", ["zh", "zh-Hans"]),
        // Taiwan, Hong Kong and Macao go through Traditional, never to bare zh (read as Simplified).
        ("zh-TW", ["zh-TW", "zh-Hant"]),
        ("zh-HK", ["zh-HK", "zh-Hant"]),
        ("zh-MO", ["zh-MO", "zh-Hant"]),
        ("zh-Hant-TW", ["zh-Hant-TW", "zh-Hant"]),
        ("zh-Hant", ["zh-Hant"]),
        // A script given wins over the region.
        ("zh-Hans-HK", ["zh-Hans-HK", "zh-Hans", "zh"]),
        ("ja-JP", ["ja-JP", "ja"]),
        ("ko_KR", ["ko-KR", "ko"]),
    ])
    func theFallbackChain(_ tag: String, _ expected: [String]) {
        #expect(LanguageTag(tag).fallbackChain == expected)
    }
}
