import Testing
@testable import StudyServer

@Suite struct FormBodyTests {
    @Test func readsRepeatedFieldsPlusAndPercentEncoding() throws {
        let fields = try FormBody.fields("a=1&b=x+y&a=2&c=%E6%97%A5%26&empty=&flag")
        #expect(fields["a"] == ["1", "2"])
        #expect(fields["b"] == ["x y"])
        #expect(fields["c"] == ["日&"])
        #expect(fields["empty"] == [""])
        #expect(fields["flag"] == [""])
    }

    @Test func refusesBrokenEncodingNamingTheField() {
        #expect(throws: StudyServerError.badRequest("the value of the form field 'name' is not valid URL encoding")) {
            try FormBody.fields("name=%ZZ")
        }
        #expect(throws: StudyServerError.self) { try FormBody.fields("bad%FF=1") }
    }
}
