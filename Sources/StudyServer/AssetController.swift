import HTTPTypes
import Hummingbird
import NIOCore
import StudyWeb

/// The health check and the one stylesheet and script, cached for a year (their URLs carry a version).
///
/// | Route | What it does |
/// |---|---|
/// | `GET /health` | `ok`: for load balancers and the benchmarks |
/// | `GET /assets/studykit.css`, `/assets/studykit.js` | the stylesheet and the script |
struct AssetController {
    func addRoutes(to router: Router<StudyRequestContext>) {
        router.get("/health") { _, _ in "ok" }
        router.get("/assets/studykit.css") { _, _ in Self.asset(WebAssets.stylesheet, type: "text/css; charset=utf-8") }
        router.get("/assets/studykit.js") { _, _ in Self.asset(WebAssets.script, type: "text/javascript; charset=utf-8") }
    }

    private static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
