import Testing
@testable import Consent

@Suite("Adding to a document's head")
struct HTMLHeadTests {
    @Test func aPolicyGoesFirstInTheHeadSoThatItCoversEverything() {
        let html = "<!DOCTYPE html><html><HEAD lang=\"en\"><title>T</title><link rel=\"stylesheet\" href=\"x.css\"></head><body>B</body></html>"
        #expect(HTMLHead.insertingFirst("<meta P>", into: html)
            == "<!DOCTYPE html><html><HEAD lang=\"en\"><meta P><title>T</title><link rel=\"stylesheet\" href=\"x.css\"></head><body>B</body></html>")
        // `<header>` is not a head; without one the fragment goes where a head would be.
        #expect(HTMLHead.insertingFirst("<meta P>", into: "<!doctype html><header>H</header>")
            == "<!doctype html><meta P><header>H</header>")
        #expect(HTMLHead.inserting("<style>S</style>", into: html).contains("<style>S</style></head>"))
    }
}
