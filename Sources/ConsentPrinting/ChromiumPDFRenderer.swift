import Consent
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints consent PDFs with headless Chromium (Debian's `chromium`; `fonts-noto-cjk` for Chinese, Japanese
/// and Korean text).
///
/// ```swift
/// let renderer = ChromiumPDFRenderer()                       // finds chromium on PATH
/// let pdf = try await renderer.renderPDF(of: sealed.record)  // footer from the record
/// ```
///
/// Each run gets a private temporary folder (mode 0700: the HTML, the PDF, Chromium's profile and logs),
/// removed afterwards; Chromium runs with a fresh profile, no network-facing extras, and a time limit after
/// which it is killed with its helper processes.
public struct ChromiumPDFRenderer: ConsentPDFRenderer {
    /// The program names tried, in order, when no path is configured.
    public static let defaultExecutableNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    /// The Chromium to run; nil looks for ``defaultExecutableNames`` on `PATH`.
    public var executablePath: String?
    /// How long one PDF may take before Chromium is killed.
    public var timeLimit: Duration
    /// Where the private per-run folders are made.
    public var temporaryDirectory: URL
    /// The directories searched when ``executablePath`` is nil.
    public var searchPath: [String]

    /// A renderer; see the properties. The defaults suit a server: `chromium` from `PATH`, 60 seconds.
    public init(executablePath: String? = nil, timeLimit: Duration = .seconds(60),
                temporaryDirectory: URL = FileManager.default.temporaryDirectory,
                searchPath: [String]? = nil) {
        self.executablePath = executablePath
        self.timeLimit = timeLimit
        self.temporaryDirectory = temporaryDirectory
        self.searchPath = searchPath ?? ChildProcess.environmentSearchPath
    }

    /// The Chromium that will run, or the error saying what to install.
    public func locateChromium() throws -> String {
        if let executablePath {
            guard FileManager.default.isExecutableFile(atPath: executablePath) else {
                throw ConsentPDFError.chromiumNotExecutable(path: executablePath)
            }
            return executablePath
        }
        guard let found = ChildProcess.locate(Self.defaultExecutableNames, searchPath: searchPath) else {
            throw ConsentPDFError.chromiumNotFound(searched: Self.defaultExecutableNames)
        }
        return found
    }

    /// Writes `html` with the footer's style into a private folder, prints it with Chromium, and returns the PDF.
    public func renderPDF(html: String, footer: ConsentPDFFooter) async throws -> Data {
        let chromium = try locateChromium()
        let folder = try PrivateTemporaryFolder(in: temporaryDirectory, prefix: "studykit-consent-pdf")
        defer { folder.remove() }

        let page = folder.url.appendingPathComponent("document.html")
        let output = folder.url.appendingPathComponent("document.pdf")
        let profile = folder.url.appendingPathComponent("profile", isDirectory: true)
        // A byte-order mark makes the file UTF-8 whatever the document declares (or fails to).
        let printable = HTMLHead.insertingFirst(Self.printPolicy, into: footer.injected(into: html))
        let bytes = Data([0xEF, 0xBB, 0xBF]) + Data(printable.utf8)
        do {
            try bytes.write(to: page, options: .atomic)
        } catch {
            throw ConsentPDFError.temporaryFiles(path: page.path, reason: "cannot write the HTML: \(error.localizedDescription)")
        }

        var environment = ProcessInfo.processInfo.environment
        // Chromium writes caches and settings under HOME and XDG folders; keep them in the private folder.
        for name in ["HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"] { environment[name] = folder.url.path }
        let process = ChildProcess(
            executable: chromium,
            arguments: Self.arguments(page: page, output: output, profile: profile),
            environment: environment,
            standardOutput: folder.url.appendingPathComponent("stdout.log"),
            standardError: folder.url.appendingPathComponent("stderr.log"),
            timeLimit: timeLimit)
        let outcome: ChildProcess.Outcome
        do {
            outcome = try await process.run()
        } catch let error as ConsentPDFError {
            throw error
        } catch {
            throw ConsentPDFError.chromiumNotExecutable(path: chromium)
        }
        switch outcome {
        case .timedOut:
            let seconds = Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) / 1e18
            throw ConsentPDFError.timedOut(executable: chromium, seconds: seconds)
        case .exited(let status) where status != 0:
            throw ConsentPDFError.chromiumFailed(executable: chromium, status: status, stderrTail: ChildProcess.tail(of: process.standardError))
        case .exited:
            guard let pdf = try? Data(contentsOf: output), pdf.count > 0 else {
                throw ConsentPDFError.emptyOutput(executable: chromium, stderrTail: ChildProcess.tail(of: process.standardError))
            }
            return pdf
        }
    }

    /// What the printed page may load: its own inline styles, and images from the web or inline. No script, frame,
    /// object or local file: a consent record's HTML holds what participants typed (escaped, but this holds even if
    /// something were not), and the printer must not be a way to read the server's files or reach its network.
    static let printPolicy = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        + "img-src https: data:; font-src data:\">\n"

    /// Chromium's command line: headless printing without its own header and footer, a throwaway profile,
    /// and everything a one-page print does not need switched off (no file access from the page's own file).
    static func arguments(page: URL, output: URL, profile: URL) -> [String] {
        [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            "--print-to-pdf=\(output.path)",
            "--user-data-dir=\(profile.path)",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-sync",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-default-apps",
            "--disable-crash-reporter",
            "--disable-breakpad",
            "--disable-dev-shm-usage",
            "--mute-audio",
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
            page.absoluteString,
        ]
    }
}

/// A folder only the current user can enter (mode 0700, made by `mkdtemp`), removed when done.
struct PrivateTemporaryFolder {
    let url: URL

    init(in parent: URL, prefix: String) throws {
        var template = Array(parent.appendingPathComponent("\(prefix).XXXXXX").path.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        guard let made else {
            throw ConsentPDFError.temporaryFiles(path: parent.path, reason: "cannot make a private temporary folder: \(String(cString: strerror(errno)))")
        }
        url = URL(fileURLWithPath: made, isDirectory: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
