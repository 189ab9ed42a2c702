import Foundation
import Testing
import JSONDiagnostics

/// JSON text written from a tree: its order kept, strings escaped, and read back to the same tree.
struct JSONTreeTextTests {
    @Test func aTreeIsWrittenInItsOrderAndReadsBackTheSame() throws {
        let tree = JSONTree.object([
            .init(key: "z", value: .number("1e-7")), .init(key: "a", value: .array([.bool(true), .null, .number("-0.5")])),
            .init(key: "text", value: .string("quote \" backslash \\ newline \n tab \t bell \u{7} bidi \u{202E} 日本")),
        ])
        let text = String(decoding: tree.jsonData, as: UTF8.self)
        #expect(text == #"{"z":1e-7,"a":[true,null,-0.5],"text":"quote \" backslash \\ newline \n tab \t bell \u0007 bidi "# + "\u{202E} 日本\"}")
        #expect(try JSONTree(data: tree.jsonData) == tree)
    }
}
