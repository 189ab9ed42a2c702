/// Why a consent PDF could not be made or read. A failure here never affects the sealed record: the PDF can
/// be printed again from the record later.
public enum ConsentPDFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No Chromium was found (the paths tried).
    case chromiumNotFound(searched: [String])
    /// The configured Chromium path is missing or not executable.
    case chromiumNotExecutable(path: String)
    /// Chromium did not finish within the time limit and was killed with its child processes.
    case timedOut(executable: String, seconds: Double)
    /// Chromium exited with a failure status; the end of what it wrote to stderr.
    case chromiumFailed(executable: String, status: Int32, stderrTail: String)
    /// Chromium exited normally but wrote no PDF, or an empty one; the end of its stderr.
    case emptyOutput(executable: String, stderrTail: String)
    /// `pdftotext` (poppler-utils) was not found.
    case pdftotextNotFound(searched: [String])
    /// `pdftotext` could not read the PDF.
    case pdftotextFailed(pdf: String, status: Int32, stderrTail: String)
    /// The private temporary folder or a file in it could not be made or read.
    case temporaryFiles(path: String, reason: String)

    /// What went wrong, with the path concerned and what to do.
    public var description: String {
        switch self {
        case .chromiumNotFound(let searched):
            "no Chromium found (looked for \(searched.joined(separator: ", "))): install Debian's chromium and fonts-noto-cjk "
                + "(apt-get install chromium fonts-noto-cjk)"
        case .chromiumNotExecutable(let path):
            "Chromium at \(path) is missing or not executable: install Debian's chromium and fonts-noto-cjk "
                + "(apt-get install chromium fonts-noto-cjk) or give the right path"
        case .timedOut(let executable, let seconds):
            "\(executable) did not finish the PDF within \(seconds) s and was stopped"
        case .chromiumFailed(let executable, let status, let tail):
            "\(executable) failed with exit status \(status): \(tail)"
        case .emptyOutput(let executable, let tail):
            "\(executable) wrote no PDF: \(tail)"
        case .pdftotextNotFound(let searched):
            "pdftotext not found (looked for \(searched.joined(separator: ", "))): install poppler-utils (apt-get install poppler-utils)"
        case .pdftotextFailed(let pdf, let status, let tail):
            "pdftotext could not read \(pdf) (exit status \(status)): \(tail)"
        case .temporaryFiles(let path, let reason):
            "\(path): \(reason)"
        }
    }
}
