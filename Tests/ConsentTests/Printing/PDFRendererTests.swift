import Foundation
import Research
import Testing
@testable import Consent
@testable import ConsentPrinting

/// Runs a poppler tool and returns its standard output.
private func poppler(_ tool: String, _ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
}

private let toolsInstalled = ["/usr/bin/pdftotext", "/usr/bin/pdfinfo", "/usr/bin/pdftoppm"].allSatisfy(FileManager.default.isExecutableFile)
    && ChromiumPDFRenderer.defaultExecutableNames.contains { name in
        ChildProcess.locate([name], searchPath: ChildProcess.environmentSearchPath) != nil
    }

/// The signature as an inline SVG path, the way a review page draws it.
private func svg(_ drawing: Signature) -> String {
    let paths = drawing.strokes.map { stroke in
        stroke.enumerated().map { index, point in "\(index == 0 ? "M" : "L")\(point.x) \(point.y)" }.joined(separator: " ")
    }
    return "<svg width=\"80mm\" height=\"30mm\" viewBox=\"0 0 \(drawing.width) \(drawing.height)\" preserveAspectRatio=\"none\">"
        + paths.map { "<path d=\"\($0)\" fill=\"none\" stroke=\"#000\" stroke-width=\"4\" stroke-linecap=\"round\"/>" }.joined()
        + "</svg>"
}

/// A consent page with the signature in a fixed box: 20 mm from the left and 100 mm from the top of the
/// page's content area (whose margins are 20 mm), 80 × 30 mm; the signers' printed names 180 mm from the top.
private func document(language: String, title: String, body: String, signature: Signature?, extraPages: Int = 0,
                      signers: [String] = ["山田 花子", "Kenji Sato"]) -> String {
    let filler = (0..<extraPages).map { "<section style=\"break-before: page\"><h2>\(title) \($0 + 2)</h2><p>\(body)</p></section>" }.joined()
    return """
    <!DOCTYPE html><html lang="\(language)"><head><meta charset="utf-8"><title>\(title)</title>
    <style>@page { size: A4; margin: 20mm; } body { margin: 0; font-family: sans-serif; }
    .signature { position: absolute; left: 20mm; top: 100mm; width: 80mm; height: 30mm; }</style></head>
    <body><h1>\(title)</h1><p>\(body)</p>
    <div class="signature">\(signature.map(svg) ?? "")</div>
    <div style="position: absolute; left: 20mm; top: 180mm">\(signers.map { "<p>\($0)</p>" }.joined())</div>\(filler)</body></html>
    """
}

private func record(html: String, language: String, given: String, family: String) -> ConsentRecord {
    var record = RecordFixtures.record(html: html, signatures: [RecordFixtures.participant(given: given, family: family), RecordFixtures.investigator])
    record.language = language
    return record
}

private func write(_ pdf: Data, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent("consent.pdf")
    try pdf.write(to: url)
    return url
}

/// Dark pixels (below 128 of 255) in a rectangle of a binary PGM (P5), the rectangle given in millimetres.
private func darkPixels(inPGM data: Data, dpi: Double, x: ClosedRange<Double>, y: ClosedRange<Double>) throws -> Int {
    var fields = [String](), index = data.startIndex
    while fields.count < 4 {
        while data[index] == 0x20 || data[index] == 0x0A { index += 1 }
        var field = ""
        while data[index] != 0x20 && data[index] != 0x0A { field.append(Character(UnicodeScalar(data[index]))); index += 1 }
        fields.append(field)
    }
    index += 1
    #expect(fields[0] == "P5")
    let width = Int(fields[1])!, height = Int(fields[2])!
    let pixels = Array(data[index...])
    #expect(pixels.count == width * height)
    func pixel(_ mm: Double) -> Int { Int(mm / 25.4 * dpi) }
    var dark = 0
    for row in pixel(y.lowerBound)..<min(height, pixel(y.upperBound)) {
        for column in pixel(x.lowerBound)..<min(width, pixel(x.upperBound)) where pixels[row * width + column] < 128 { dark += 1 }
    }
    return dark
}

/// Real Chromium and poppler: `make test` installs them, so a machine without them fails here rather than skipping.
@Suite(.serialized)
struct PDFRendererTests {
    let renderer = ChromiumPDFRenderer()

    @Test func chromiumAndPopplerAreInstalled() {
        #expect(toolsInstalled, "install Debian's chromium, fonts-noto-cjk and poppler-utils (make test does)")
    }

    @Test func aJapaneseDocumentShowsItsTextFooterAndSignature() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = document(language: "ja", title: "同意書", body: "本研究への参加は任意です。", signature: RecordFixtures.drawing)
        let sealed = try RecordFixtures.sealed(record(html: html, language: "ja", given: "花子", family: "山田"))

        let clock = ContinuousClock()
        let start = clock.now
        let pdf = try await renderer.renderPDF(of: sealed.record)
        print("consent PDF (Japanese, 1 page): \(clock.now - start), \(pdf.count) bytes")
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
        let file = try write(pdf, in: folder)

        let text = try await PDFTextExtractor().text(ofPDF: file)
        #expect(text.contains("同意書"))
        #expect(text.contains("本研究への参加は任意です。"))
        #expect(text.contains("Participant: 花子 山田"))
        #expect(text.contains("Signed: 2026-03-29T17:00:00.250+09:00"))
        #expect(text.contains("Study: Recover"))
        #expect(text.contains("Document version: 1.2"))
        // Printed with the English labels: the check prints the record again with the same footer.
        #expect(try await ConsentRecordVerifier().mismatches(inPDF: file, of: sealed, footer: ConsentPDFFooter(record: sealed.record, labels: .english)) == [])

        // Ink where the signature box is, none in a blank box of the same size below it.
        let image = try poppler("pdftoppm", ["-r", "50", "-gray", "-f", "1", "-l", "1", file.path])
        let signature = try darkPixels(inPGM: image, dpi: 50, x: 40...120, y: 120...150)
        let blank = try darkPixels(inPGM: image, dpi: 50, x: 40...120, y: 160...190)
        #expect(signature > 60, "dark pixels in the signature box: \(signature)")
        #expect(blank == 0)
    }

    @Test func anUnsignedSignatureBoxHasNoInk() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = document(language: "ja", title: "同意書", body: "署名なし", signature: nil)
        let file = try write(try await renderer.renderPDF(of: record(html: html, language: "ja", given: "花子", family: "山田")), in: folder)
        let image = try poppler("pdftoppm", ["-r", "50", "-gray", "-f", "1", "-l", "1", file.path])
        #expect(try darkPixels(inPGM: image, dpi: 50, x: 40...120, y: 120...150) == 0)
    }

    @Test func aChineseDocumentShowsItsText() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = document(language: "zh-Hans", title: "知情同意书", body: "研究参与者可以随时退出本研究。", signature: RecordFixtures.drawing,
                            signers: ["王 小明", "Kenji Sato"])
        let sealed = try RecordFixtures.sealed(record(html: html, language: "zh-Hans", given: "小明", family: "王"))
        let file = try write(try await renderer.renderPDF(of: sealed.record), in: folder)
        let text = try await PDFTextExtractor().text(ofPDF: file)
        #expect(text.contains("知情同意书"))
        #expect(text.contains("研究参与者可以随时退出本研究。"))
        #expect(text.contains("小明 王"))
        #expect(try await ConsentRecordVerifier().mismatches(inPDF: file, of: sealed, footer: ConsentPDFFooter(record: sealed.record, labels: .english)) == [])
    }

    /// The printer loads nothing a consent's HTML could use to read the server's files or run code: a document
    /// asking for a local file in a frame, an image and a script prints without them.
    @Test func aDocumentCannotPrintLocalFilesOrRunScript() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("secret.txt")
        try "SERVER-SECRET-TEXT".write(to: secret, atomically: true, encoding: .utf8)
        let body = "Visible text <iframe src=\"\(secret.absoluteString)\" width=\"600\" height=\"200\"></iframe>"
            + "<object data=\"\(secret.absoluteString)\" type=\"text/plain\" width=\"600\" height=\"200\"></object>"
            + "<script>document.write('SCRIPT-RAN')</script>"
        let html = document(language: "en", title: "Consent", body: body, signature: nil)
        let file = try write(try await renderer.renderPDF(of: record(html: html, language: "en", given: "Ana", family: "García")), in: folder)
        let text = try await PDFTextExtractor().text(ofPDF: file)
        #expect(text.contains("Visible text"))
        #expect(!text.contains("SERVER-SECRET-TEXT"))
        #expect(!text.contains("SCRIPT-RAN"))
    }

    @Test func everyPageOfALongDocumentHasTheFooter() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = String(repeating: "本研究では、参加者の歩数と睡眠のデータを集めます。", count: 40)
        let html = document(language: "ja", title: "同意書", body: body, signature: RecordFixtures.drawing, extraPages: 3)
        let sealed = try RecordFixtures.sealed(record(html: html, language: "ja", given: "花子", family: "山田"))
        let clock = ContinuousClock()
        let start = clock.now
        let pdf = try await renderer.renderPDF(of: sealed.record)
        let file = try write(pdf, in: folder)

        let info = String(decoding: try poppler("pdfinfo", [file.path]), as: UTF8.self)
        let pages = try #require(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }
            .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) })
        print("consent PDF (Japanese, \(pages) pages): \(clock.now - start), \(pdf.count) bytes")
        #expect(pages >= 4)
        for page in 1...pages {
            let text = try await PDFTextExtractor().text(ofPDF: file, pages: page...page)
            for expected in ["Study: Recover", "Document version: 1.2", "Participant: 花子 山田", "Signed: 2026-03-29T17:00:00.250+09:00",
                             "Record: \(sealed.record.id.uuidString)", "Document SHA-256: \(sealed.record.htmlSHA256)"] {
                #expect(text.contains(expected), "page \(page) lacks '\(expected)'")
            }
            // The page number ("3 / 7") comes out of pdftotext without its spaces.
            #expect(text.filter { $0 != " " }.contains("\(page)/\(pages)"), "page \(page) lacks its number")
        }
    }

    @Test func aPDFOfAnotherRecordIsNamed() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = document(language: "ja", title: "同意書", body: "本文", signature: nil)
        let sealed = try RecordFixtures.sealed(record(html: html, language: "ja", given: "花子", family: "山田"))
        let file = try write(try await renderer.renderPDF(of: sealed.record), in: folder)
        var other = sealed.record
        other.id = UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!
        other.html += "<!-- changed -->"
        other.htmlSHA256 = other.computedHTMLSHA256
        other.signatures[1].familyName = "Tanaka"
        let problems = try await ConsentRecordVerifier().mismatches(inPDF: file, of: try RecordFixtures.sealed(other),
                                                                     footer: ConsentPDFFooter(record: other, labels: .english))
        #expect(Array(problems.map(\.description).prefix(3)) == [
            "the PDF's text does not show the record id '00000000-0000-4000-8000-0000000000AA'",
            "the PDF's text does not show the document SHA-256 '\(other.htmlSHA256)'",
            "the PDF's text does not show the family name of signature 'investigator' 'Tanaka'",
        ])
        #expect(problems.dropFirst(3).map(\.name) == ["pdf-page"], "the footer of page 1 differs: \(problems)")
    }

    @Test func theServersOwnPrintOfARecordVerifiesPageByPage() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = document(language: "ja", title: "同意書", body: "研究に参加します。", signature: RecordFixtures.drawing, extraPages: 2)
        let sealed = try RecordFixtures.sealed(record(html: html, language: "ja", given: "花子", family: "山田"))
        let file = try write(try await renderer.renderPDF(html: html, footer: .localized(for: sealed.record)), in: folder)
        #expect(try await ConsentRecordVerifier().mismatches(inPDF: file, of: sealed) == [])
    }

    /// Before, a PDF passed when its text held the record id, the hash and the names anywhere: a changed body, or a
    /// single page holding only those, passed.
    @Test func aPDFWithChangedBodyTextOrOnlyTheFootersValuesIsRefused() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = document(language: "ja", title: "同意書", body: "研究に参加します。", signature: nil, extraPages: 1)
        let sealed = try RecordFixtures.sealed(record(html: html, language: "ja", given: "花子", family: "山田"))
        let footer = ConsentPDFFooter.localized(for: sealed.record)

        let changed = html.replacingOccurrences(of: "研究に参加します。", with: "研究に参加しません。")
        let altered = try write(try await renderer.renderPDF(html: changed, footer: footer), in: folder)
        let alteredProblems = try await ConsentRecordVerifier().mismatches(inPDF: altered, of: sealed)
        #expect(alteredProblems.map(\.name) == ["pdf-page", "pdf-page"], "\(alteredProblems)")
        #expect(alteredProblems.first?.description.hasPrefix("page 1 of the PDF: the PDF shows …") == true, "\(alteredProblems)")
        #expect(alteredProblems.first?.description.contains("しません") == true, "\(alteredProblems)")

        let record = sealed.record
        let bare = "<!DOCTYPE html><html><body><p>\(record.id.uuidString) \(record.htmlSHA256) 花子 山田 Kenji Sato</p></body></html>"
        let forged = try write(try await renderer.renderPDF(html: bare, footer: footer), in: folder)
        let forgedProblems = try await ConsentRecordVerifier().mismatches(inPDF: forged, of: sealed)
        #expect(forgedProblems.contains { $0.description.contains("the PDF has 1 pages, the record's document prints on 2") }, "\(forgedProblems)")
    }
}

@Suite struct PDFRendererFailureTests {
    private func script(_ body: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("fake-chromium")
        try ("#!/bin/sh\n" + body + "\n").write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    private let footer = ConsentPDFFooter(studyName: "S", documentVersion: "1", participantName: "P", signingTime: "T",
                                          recordID: nil, documentSHA256: nil)

    @Test func aMissingChromiumNamesThePackages() async throws {
        let bogus = ChromiumPDFRenderer(executablePath: "/nonexistent/chromium")
        await #expect(throws: ConsentPDFError.chromiumNotExecutable(path: "/nonexistent/chromium")) {
            _ = try await bogus.renderPDF(html: "<p>x</p>", footer: footer)
        }
        let none = ChromiumPDFRenderer(searchPath: [])
        do {
            _ = try await none.renderPDF(html: "<p>x</p>", footer: footer)
            Issue.record("rendered without any Chromium")
        } catch {
            #expect("\(error)".contains("apt-get install chromium fonts-noto-cjk"))
            #expect("\(error)".contains("chromium, chromium-browser, google-chrome"))
        }
    }

    @Test func aFailingChromiumReportsItsStatusAndStderr() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let failing = try script("echo 'ERROR: cannot open display' >&2; exit 3", in: folder)
        await #expect(throws: ConsentPDFError.chromiumFailed(executable: failing, status: 3, stderrTail: "ERROR: cannot open display")) {
            _ = try await ChromiumPDFRenderer(executablePath: failing).renderPDF(html: "<p>x</p>", footer: footer)
        }
        let silent = try script("echo 'printed nothing' >&2; exit 0", in: folder)
        await #expect(throws: ConsentPDFError.emptyOutput(executable: silent, stderrTail: "printed nothing")) {
            _ = try await ChromiumPDFRenderer(executablePath: silent).renderPDF(html: "<p>x</p>", footer: footer)
        }
    }

    @Test func aHungChromiumIsKilledWithItsChildrenAndItsFolderRemoved() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let childPID = folder.appendingPathComponent("child.pid")
        let hung = try script("sleep 30 & echo $! > '\(childPID.path)'; wait", in: folder)
        let renderer = ChromiumPDFRenderer(executablePath: hung, timeLimit: .milliseconds(500), temporaryDirectory: temporary)
        await #expect(throws: ConsentPDFError.timedOut(executable: hung, seconds: 0.5)) {
            _ = try await renderer.renderPDF(html: "<p>x</p>", footer: footer)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        let pid = try #require(Int32(String(decoding: try Data(contentsOf: childPID), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        var gone = false
        for _ in 0..<40 where !gone {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
            gone = state == nil || state == "Z"
            if !gone { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(gone, "the child sleep \(pid) outlived the timeout")
    }

    @Test func theRenderFolderIsPrivateWhileChromiumRuns() async throws {
        let folder = try RecordFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let report = folder.appendingPathComponent("report.txt")
        // The fake prints the mode of the folder holding the HTML, then a one-byte "PDF" where it was asked.
        let fake = try script("""
        for argument in "$@"; do case "$argument" in
          --print-to-pdf=*) out="${argument#--print-to-pdf=}";;
          file://*) page="${argument#file://}";;
        esac; done
        stat -c '%a' "$(dirname "$page")" > '\(report.path)'
        head -c 3 "$page" | od -An -tx1 >> '\(report.path)'
        printf '%%PDF-fake' > "$out"
        """, in: folder)
        let pdf = try await ChromiumPDFRenderer(executablePath: fake, temporaryDirectory: temporary).renderPDF(html: "<p>x</p>", footer: footer)
        #expect(pdf == Data("%PDF-fake".utf8))
        let lines = try String(contentsOf: report, encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == ["700", "ef bb bf"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }
}
