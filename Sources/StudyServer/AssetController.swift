import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Study
import StudyWeb

/// The health check and the one stylesheet and script, cached for a year (their URLs carry a version); the service
/// worker and the web app manifest, which browsers look for at fixed URLs and so are asked again each time.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /health` | `ok`: the process answers (for load balancers and the benchmarks) |
/// | `GET /health/database` | `ok` when the study's database answers; 503 with `Retry-After` when it does not (a proxy's check) |
/// | `GET /assets/studykit.css`, `/assets/studykit.js` | the stylesheet and the script |
/// | `GET /assets/push.js` | turning on notifications, loaded by the script on the pages that offer them |
/// | `GET /assets/active/NAME.js` | the ES module of an active step (`tapping.js`), `active.js`, which they share, and `motion.js`, the sensor recorders |
/// | `GET /images/NAME` | an image the study shows (a feed card's, the logo), read when the study was loaded |
/// | `GET /sw.js` | the service worker that shows pushed reminders (scope `/`) |
/// | `GET /manifest.webmanifest` | the web app manifest: the study's name, tint and logo (a phone adds the site to its home screen with it) |
struct AssetController {
    /// The study's images by the name in their URL (``imageURL(_:)``).
    let images: [String: StudyImage]
    /// The web app manifest, written when the study was loaded.
    let manifest: String
    /// Returns when the study's database answers; throws when it does not.
    let databaseAnswers: @Sendable () async throws -> Void

    init(study: StudyDefinition, databaseAnswers: @escaping @Sendable () async throws -> Void) {
        images = Dictionary(study.images.map { (Self.imageName($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        let logo = study.theme.logo.flatMap { path in study.images[path].map { (url: Self.imageURL(path), image: $0) } }
        manifest = String(decoding: WebAssets.manifest(name: study.name, themeColour: study.theme.tint,
                                                       icon: logo.map { .init(url: $0.url, data: $0.image.data, contentType: $0.image.contentType) }),
                          as: UTF8.self)
        self.databaseAnswers = databaseAnswers
    }

    /// The URL of the study folder's image `path`: one path segment, so that nothing in it names another file.
    static func imageURL(_ path: String) -> String { "/images/" + imageName(path) }

    private static func imageName(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? path
    }

    func addRoutes(to router: Router<StudyRequestContext>) {
        let images = self.images
        router.get("/images/:name") { request, context in
            // The segment as it came, still percent-encoded: the key ``imageName(_:)`` made.
            guard let name = request.uri.path.split(separator: "/").last.map(String.init), let image = images[name] else {
                throw StudyServerError.noSuchPage
            }
            var headers = HTTPFields()
            headers[.contentType] = image.contentType
            headers[.cacheControl] = "public, max-age=3600"
            // An SVG is shown as an image only: nothing in it runs, even opened on its own.
            headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.data)))
        }
        router.get("/health") { _, _ in "ok" }
        let databaseAnswers = self.databaseAnswers
        router.get("/health/database") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.cacheControl] = "no-store"
            do {
                try await databaseAnswers()
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "ok")))
            } catch {
                // What failed stays in the server's log: the check is public, the database's words are not.
                StudyServerError.databaseUnavailable.addRetryAfter(to: &headers)
                return Response(status: .serviceUnavailable, headers: headers,
                                body: .init(byteBuffer: ByteBuffer(string: "the study's database does not answer")))
            }
        }
        router.get("/assets/studykit.css") { _, _ in Self.asset(WebAssets.stylesheet, type: "text/css; charset=utf-8") }
        router.get("/assets/studykit.js") { _, _ in Self.asset(WebAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("/assets/push.js") { _, _ in Self.asset(WebAssets.pushScript, type: "text/javascript; charset=utf-8") }
        router.get("/assets/active/:file") { _, context in
            guard let file = context.parameters.get("file"), let script = WebAssets.activeScripts[file] else { throw StudyServerError.noSuchPage }
            return Self.asset(script, type: "text/javascript; charset=utf-8")
        }
        router.get("/sw.js") { _, _ in
            var response = Self.asset(WebAssets.serviceWorker, type: "text/javascript; charset=utf-8", cache: "no-cache")
            response.headers[HTTPField.Name("Service-Worker-Allowed")!] = "/"
            return response
        }
        let manifest = self.manifest
        router.get("/manifest.webmanifest") { _, _ in
            Self.asset(manifest, type: "application/manifest+json", cache: "no-cache")
        }
    }

    /// A file of the site; by default cached for a year, as a URL with a version may be.
    private static func asset(_ text: String, type: String, cache: String = "public, max-age=31536000, immutable") -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = cache
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
