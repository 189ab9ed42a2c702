import ActiveTasks
import Foundation

/// The participant pages' stylesheet and script, read once from the module's resources, for a server to
/// serve under ``AssetDelivery/linked(basePath:)`` or for pages to inline; the service worker and the web app
/// manifest, which a server serves at its root.
public enum WebAssets {
    /// `studykit.css`: the one stylesheet; the theme tint is the `--tint` variable.
    public static let stylesheet: String = resource("studykit.css")
    /// `studykit.js`: the one script (signature pad, live validation, range readout, exclusive choices).
    /// Pages work without it, except for drawing a signature.
    public static let script: String = resource("studykit.js")
    /// `push.js`: turning on notifications (web push), which `studykit.js` loads from beside itself on the pages that
    /// offer them (the reminders page, a permissions step asking for notifications), so that no other page carries it.
    public static let pushScript: String = resource("push.js")
    /// The ES modules of active steps by file name (`tapping.js`): one per module, `active.js`, which they all share,
    /// and `motion.js`, the sensor recorders of the steps that record motion.
    public static let activeScripts: [String: String] = Dictionary(uniqueKeysWithValues: (["active", "motion"] + activeModuleNames).map {
        ("\($0).js", resource("active/\($0).js"))
    })
    /// The active step modules, each of which has its browser side in `Resources/active/NAME.js`.
    static let activeModuleNames = ActiveModules.standard.names
    /// `sw.js`: the service worker, served at the site's root (its scope is the whole site). It shows a pushed
    /// reminder as a notification and opens the reminder's page, on this site only, when the notification is tapped.
    public static let serviceWorker: String = resource("sw.js")

    /// A short hash of every file, to put in their URLs so that browsers fetch them again after a change.
    public static let version: String = {
        var hash: UInt32 = 0x811C_9DC5
        for byte in (stylesheet + script + pushScript + activeScripts.keys.sorted().compactMap { activeScripts[$0] }.joined()).utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return String(hash, radix: 16)
    }()

    /// The web app manifest of a study's site (`/manifest.webmanifest`): its name, a window of its own from the home page,
    /// the theme tint as the window's colour, and the logo as its icon when the study has one.
    ///
    /// ```swift
    /// let json = WebAssets.manifest(name: "Recover", themeColour: "#C8472B",
    ///                               icon: .init(url: "/images/logo.svg", data: logo.data, contentType: logo.contentType))
    /// ```
    public static func manifest(name: String, themeColour: String, icon: ManifestIcon?) -> Data {
        let manifest = Manifest(name: name, startURL: "/", scope: "/", display: "standalone",
                                themeColour: PageShell.validatedTint(themeColour), icons: icon.map { [$0] })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and optionals only: encoding cannot fail.
        return (try? encoder.encode(manifest)) ?? Data("{}".utf8)
    }

    /// An icon of the web app manifest: the study's logo.
    public struct ManifestIcon: Encodable, Hashable, Sendable {
        /// Where the image is served (`/images/logo.svg`).
        public var src: String
        /// Its media type (`image/svg+xml`).
        public var type: String
        /// Its size as the manifest says it (`512x512`; `any` for a drawing); nil when the format does not say it simply.
        public var sizes: String?

        /// The icon served at `url` whose bytes are `data`, of media type `contentType`; its size is read from a PNG's header.
        public init(url: String, data: Data, contentType: String) {
            src = url
            type = contentType
            sizes = contentType == "image/svg+xml" ? "any" : Self.pngSize(data)
        }

        /// `WIDTHxHEIGHT` from a PNG's header chunk (IHDR, always first); nil for anything else.
        static func pngSize(_ data: Data) -> String? {
            let bytes = [UInt8](data.prefix(24))
            guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else {
                return nil
            }
            func number(_ start: Int) -> UInt32 { bytes[start..<start + 4].reduce(0) { $0 << 8 | UInt32($1) } }
            return "\(number(16))x\(number(20))"
        }
    }

    /// The members of the manifest, named as the Web Application Manifest spells them.
    private struct Manifest: Encodable {
        let name: String
        let startURL: String
        let scope: String
        let display: String
        let themeColour: String?
        let icons: [ManifestIcon]?

        enum CodingKeys: String, CodingKey {
            case name, scope, display, icons
            case startURL = "start_url"
            case themeColour = "theme_color"
        }
    }

    /// The text of a file under `Resources/`; a missing file is a build mistake, so it stops the program with its name.
    static func resource(_ path: String) -> String {
        guard let text = resourceText(path) else { fatalError("StudyWeb resource '\(path)' is missing from the module bundle") }
        return text
    }

    /// The text of a file under `Resources/` (such as `templates/page.mustache`); nil when the bundle lacks it.
    static func resourceText(_ path: String) -> String? {
        let url = URL(fileURLWithPath: "Resources/" + path)
        let folder = url.deletingLastPathComponent().relativePath
        guard let file = Bundle.module.url(forResource: url.deletingPathExtension().lastPathComponent,
                                           withExtension: url.pathExtension, subdirectory: folder),
              let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
