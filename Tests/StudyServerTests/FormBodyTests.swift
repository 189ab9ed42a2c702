import Foundation
import NIOCore
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
        #expect(throws: StudyServerError.malformed("The value of the form field 'name' is not valid URL encoding.")) {
            try FormBody.fields("name=%ZZ")
        }
        #expect(throws: StudyServerError.self) { try FormBody.fields("bad%FF=1") }
    }

    /// The decoding of one name or value agrees with Foundation's (`+` replaced, then `removingPercentEncoding`).
    @Test func decodesAsFoundationDoes() {
        let texts = ["", "plain", "a+b", "%41%42", "%e6%97%a5", "%E6%97%A5+%26+%2B", "%", "%4", "%4G", "%G4", "%%41", "100%25",
                     "%FF", "%C3", "%C3%A9", "%ED%A0%80", "%00", "caf%C3%A9+au+lait", "日本", "+++", "%2", "a%20b%20", "%F0%9F%A6%B5"]
        for text in texts {
            #expect(FormBody.decode(Substring(text)) == text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding, "\(text)")
        }
    }
}

@Suite struct MultipartFormBodyTests {
    let boundary = "----StudyKitBoundary7MA4YWxk"

    func body(_ parts: [String]) -> ByteBuffer {
        ByteBuffer(string: parts.map { "--\(boundary)\r\n\($0)\r\n" }.joined() + "--\(boundary)--\r\n")
    }

    @Test func readsFieldsAndFilesAsABrowserPostsThem() throws {
        let (fields, files) = try FormBody.multipart(body([
            "Content-Disposition: form-data; name=\"_csrf\"\r\n\r\ntoken",
            "Content-Disposition: form-data; name=\"action\"\r\n\r\nnext",
            "Content-Disposition: form-data; name=\"q0\"; filename=\"scar \\\"1\\\".png\"\r\nContent-Type: image/png\r\n\r\n\u{89}PNG\r\nbytes",
            "Content-Disposition: form-data; name=\"q1\"; filename=\"\"\r\nContent-Type: application/octet-stream\r\n\r\n",
            "Content-Disposition: form-data; name=\"note\"\r\n\r\n日本",
        ]), boundary: boundary)
        #expect(fields == ["_csrf": ["token"], "action": ["next"], "note": ["日本"]])
        #expect(files.count == 1, "an empty file input posts no file")
        #expect(files["q0"]?.fileName == "scar \"1\".png")
        #expect(files["q0"]?.contentType == "image/png")
        #expect(files["q0"]?.data == Data("\u{89}PNG\r\nbytes".utf8))
    }

    @Test func recognisesTheContentType() {
        #expect(FormBody.multipartBoundary(contentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(FormBody.multipartBoundary(contentType: "Multipart/Form-Data; charset=utf-8; boundary=\"a b\"") == "a b")
        #expect(FormBody.multipartBoundary(contentType: "application/x-www-form-urlencoded") == nil)
        #expect(FormBody.multipartBoundary(contentType: "multipart/form-data") == nil)
    }

    @Test func refusesMalformedBodies() {
        #expect(throws: StudyServerError.malformed("Part 1 of the form has no field name.")) {
            try FormBody.multipart(body(["Content-Disposition: form-data\r\n\r\nx"]), boundary: boundary)
        }
        #expect(throws: StudyServerError.malformed("The form field 'q0' carries more than one file.")) {
            try FormBody.multipart(body([
                "Content-Disposition: form-data; name=\"q0\"; filename=\"a.png\"\r\n\r\na",
                "Content-Disposition: form-data; name=\"q0\"; filename=\"b.png\"\r\n\r\nb",
            ]), boundary: boundary)
        }
        #expect(throws: StudyServerError.malformed("The form has no parts separated by its boundary.")) {
            try FormBody.multipart(ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n"), boundary: "other")
        }
    }
}
