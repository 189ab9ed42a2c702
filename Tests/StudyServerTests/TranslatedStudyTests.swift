import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// A participant sees the study in their language where it is translated, and a page says so where the study's own
/// texts fall back to its first language.
@Suite("Translated study pages")
struct TranslatedStudyTests {
    typealias Fixture = ServerFixture

    @Test func aParticipantReadsTheirLanguageAndIsToldWhatIsNotTranslatedYet() async throws {
        let folder = try Fixture.recoverCopy()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("translations"), withIntermediateDirectories: true)
        try """
            study.yaml:
              name: リカバー
              tasks[pain].title: 毎日の痛みチェック
              tasks[pain].instructions: 今日はひざがどのくらい痛みますか？
              contacts[physio].role: 膝のリハビリを担当
            surveys/pain.json:
              steps[painLevel].title: 痛み
            """.write(to: folder.appendingPathComponent("translations/ja.yaml"), atomically: true, encoding: .utf8)
        let clock = Fixture.Clock(Fixture.date("2026-03-04T10:00:00Z"))
        let service = try Fixture.service(clock: clock, studyFolder: folder)
        let hana = try await Fixture.participant(of: service, zone: TimeZone(identifier: "Asia/Tokyo")!)
        _ = try await service.setLanguage("ja", for: hana.participant)
        let signedIn = try #require(try await service.signedIn(sessionToken: hana.sessionToken))
        let alex = try await Fixture.participant(of: service, zone: .gmt)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let home = String(buffer: try await client.execute(uri: "/", method: .get, headers: Fixture.headers(signedIn)).body)
            #expect(home.contains("毎日の痛みチェック") && home.contains("今日はひざがどのくらい痛みますか？") && !home.contains("Daily pain check"))
            #expect(home.contains("リカバー"), "the study's name in the header")
            #expect(home.contains(#"<p class="lang-note" role="note">この研究の一部はまだ日本語に翻訳されておらず、英語で表示されます。</p>"#))
            let contacts = String(buffer: try await client.execute(uri: "/contacts", method: .get, headers: Fixture.headers(signedIn)).body)
            #expect(contacts.contains("膝のリハビリを担当") && !contacts.contains("Leads your knee rehabilitation"))

            let path = try #require(home.components(separatedBy: "href=\"").dropFirst().first { $0.hasPrefix("/tasks/pain/") }?.split(separator: "\"").first)
            let started = try await client.execute(uri: String(path), method: .get, headers: Fixture.headers(signedIn))
            let run = try #require(started.headers[.location])
            let step = String(buffer: try await client.execute(uri: run, method: .get, headers: Fixture.headers(signedIn)).body)
            #expect(step.contains("痛み") && step.contains("class=\"lang-note\""))

            let english = String(buffer: try await client.execute(uri: "/", method: .get, headers: Fixture.headers(alex)).body)
            #expect(english.contains("Daily pain check") && !english.contains("lang-note") && !english.contains("リカバー"))
        }
    }
}
