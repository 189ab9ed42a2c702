import ActiveTasks
import Foundation

/// The participant pages' stylesheet and script, read once from the module's resources, for a server to
/// serve under ``AssetDelivery/linked(basePath:)`` or for pages to inline.
public enum WebAssets {
    /// `studykit.css`: the one stylesheet; the theme tint is the `--tint` variable.
    public static let stylesheet: String = resource("studykit.css")
    /// `studykit.js`: the one script (signature pad, live validation, range readout, exclusive choices).
    /// Pages work without it, except for drawing a signature.
    public static let script: String = resource("studykit.js")
    /// The ES modules of active steps by file name (`tapping.js`): one per module, and `active.js`, which they share.
    public static let activeScripts: [String: String] = Dictionary(uniqueKeysWithValues: (["active"] + activeModuleNames).map {
        ("\($0).js", resource("active/\($0).js"))
    })
    /// The active step modules, each of which has its browser side in `Resources/active/NAME.js`.
    static let activeModuleNames = ActiveModules.standard.names

    /// A short hash of every file, to put in their URLs so that browsers fetch them again after a change.
    public static let version: String = {
        var hash: UInt32 = 0x811C_9DC5
        for byte in (stylesheet + script + activeScripts.keys.sorted().compactMap { activeScripts[$0] }.joined()).utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return String(hash, radix: 16)
    }()

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
