import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
@testable import StudyServer

@Suite("Session token from the Cookie header")
struct SessionTokenTests {
    private static func request(cookies: [String]) -> Request {
        var fields = HTTPFields()
        for header in cookies { fields.append(HTTPField(name: .cookie, value: header)) }
        return Request(head: HTTPRequest(method: .get, scheme: "https", authority: "study.example", path: "/", headerFields: fields),
                       body: RequestBody(buffer: ByteBuffer()))
    }

    /// The byte reader finds what Hummingbird's cookie parser finds, on ordinary and hostile headers.
    @Test(arguments: [
        [], ["studykit_session=abc"], ["theme=dark; studykit_session=abc; lang=ja"], ["studykit_session=abc; studykit_session=def"],
        ["a=1", "studykit_session=second-header"], ["  \tstudykit_session=spaced"], ["studykit_session"], ["studykit_session=a=b=c"],
        ["xstudykit_session=no; studykit_sessionx=no"], ["studykit_session =no"], [";;;studykit_session=after-empties;;"],
        ["studykit_session=ünïcode\u{202E}"], ["STUDYKIT_SESSION=case"], ["studykit_session=trailing  "], ["=v; studykit_session=ok"],
        ["studykit_session=\"quoted\""], ["studykit_session="], ["a=1;studykit_session=x"],
    ])
    func findsWhatHummingbirdFinds(headers: [String]) {
        let request = Self.request(cookies: headers)
        #expect(StudyRouter.sessionToken(of: request) == request.cookies[StudyRouter.sessionCookie]?.value, "\(headers)")
    }

    @Test func readsTheFirstSessionCookieAmongOthers() {
        #expect(StudyRouter.sessionToken(of: Self.request(cookies: ["theme=dark; studykit_session=abc; x=1"])) == "abc")
        #expect(StudyRouter.sessionToken(of: Self.request(cookies: ["theme=dark"])) == nil)
    }
}
