import Consent
import Foundation

/// Reads a PDF's text with poppler's `pdftotext`, for checking a consent PDF against its record.
///
/// ```swift
/// let text = try await PDFTextExtractor().text(ofPDF: file, pages: 2...2)
/// ```
public struct PDFTextExtractor: Sendable {
    /// The `pdftotext` to run; nil looks for it on `PATH`.
    public var executablePath: String?
    /// How long one extraction may take.
    public var timeLimit: Duration
    /// Where the private per-run folders (for pdftotext's output) are made.
    public var temporaryDirectory: URL

    /// An extractor; see the properties.
    public init(executablePath: String? = nil, timeLimit: Duration = .seconds(30),
                temporaryDirectory: URL = FileManager.default.temporaryDirectory) {
        self.executablePath = executablePath
        self.timeLimit = timeLimit
        self.temporaryDirectory = temporaryDirectory
    }

    /// The text of `pdf` in reading order (pdftotext's default layout), of all pages or of `pages` (1-based).
    public func text(ofPDF pdf: URL, pages: ClosedRange<Int>? = nil) async throws -> String {
        let names = [executablePath ?? "pdftotext"]
        guard let executable = ChildProcess.locate(names, searchPath: ChildProcess.environmentSearchPath) else {
            throw ConsentPDFError.pdftotextNotFound(searched: names)
        }
        let folder = try PrivateTemporaryFolder(in: temporaryDirectory, prefix: "studykit-pdftotext")
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("text.txt")
        var arguments = ["-enc", "UTF-8"]
        if let pages { arguments += ["-f", String(pages.lowerBound), "-l", String(pages.upperBound)] }
        arguments += [pdf.path, output.path]
        let process = ChildProcess(executable: executable, arguments: arguments, environment: nil,
                                   standardOutput: folder.url.appendingPathComponent("stdout.log"),
                                   standardError: folder.url.appendingPathComponent("stderr.log"), timeLimit: timeLimit)
        let stderrTail = { ChildProcess.tail(of: process.standardError) }
        switch try await process.run() {
        case .timedOut:
            throw ConsentPDFError.pdftotextFailed(pdf: pdf.path, status: -1, stderrTail: "timed out")
        case .exited(let status) where status != 0:
            throw ConsentPDFError.pdftotextFailed(pdf: pdf.path, status: status, stderrTail: stderrTail())
        case .exited:
            guard let data = try? Data(contentsOf: output) else {
                throw ConsentPDFError.pdftotextFailed(pdf: pdf.path, status: 0, stderrTail: "no text output")
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
