import Foundation
import Testing

/// `studykit consent key | seal | verify | render`, run as a study team would, on the Recover examples.
@Suite(.serialized)
struct ConsentCommandTests {
    let examples = StudykitProcess.packageRoot.appendingPathComponent("examples/consent")

    private func example(_ name: String) -> String { examples.appendingPathComponent(name).path }

    @Test func keyIsCreatedOnceAndPrintedAgain() throws {
        let data = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try StudykitProcess.run(["consent", "key", "--data", data.path])
        let second = try StudykitProcess.run(["consent", "key", "--data", data.path])
        #expect(first.status == 0 && second.status == 0)
        #expect(first.stdout.trimmingCharacters(in: .whitespacesAndNewlines).count == 44) // base64 of 32 bytes
        #expect(first.stdout == second.stdout)
        let mode = try FileManager.default.attributesOfItem(atPath: data.appendingPathComponent("keys/consent-signing-key.ed25519").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func theExampleRecordVerifiesWithItsPublishedKey() throws {
        let key = try String(contentsOfFile: example("recover-public-key.txt"), encoding: .utf8)
        let result = try StudykitProcess.run(["consent", "verify", example("recover-record.json"), "--public-key", key])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "valid\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func sealThenVerifyAndEveryEditIsCaught() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = folder.appendingPathComponent("record.json")
        let sealed = try StudykitProcess.run([
            "consent", "seal", "--document", example("recover-consent.json"), "--signed", example("recover-signed.json"),
            "--participant", "p-7", "--study-id", "recover", "--study-name", "Recover", "--time-zone", "Asia/Tokyo",
            "--data", folder.appendingPathComponent("data").path, "--output", record.path,
        ])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        // Without --public-key a record re-sealed with anyone's key would pass: refused unless asked for knowingly.
        let unkeyed = try StudykitProcess.run(["consent", "verify", record.path])
        #expect(unkeyed.status != 0 && unkeyed.stdout.isEmpty)
        #expect(unkeyed.stderr.contains("give --public-key with your study's key"), "\(unkeyed.stderr)")
        let verified = try StudykitProcess.run(["consent", "verify", record.path, "--trust-embedded-key"])
        #expect(verified.stdout == "valid\n")
        // Then only the record's own key is checked, and the command says so.
        #expect(verified.stderr.contains("pass --public-key"))
        let folderKey = try StudykitProcess.run(["consent", "key", "--data", folder.appendingPathComponent("data").path]).stdout
        #expect(try StudykitProcess.run(["consent", "verify", record.path, "--public-key", folderKey]).stdout == "valid\n")

        // The record signed by this folder's key is not the example's key.
        let exampleKey = try String(contentsOfFile: example("recover-public-key.txt"), encoding: .utf8)
        let otherKey = try StudykitProcess.run(["consent", "verify", record.path, "--public-key", exampleKey])
        #expect(otherKey.status == 1)
        #expect(otherKey.stdout.contains("expected"))

        let original = try String(contentsOf: record, encoding: .utf8)
        for (edit, replacement) in [("\"Alex\"", "\"Alec\""), ("consent to participate", "consent to publish"),
                                    ("\"shareWidely\"", "\"investigatorsOnly\""), ("Recover: knee", "Recover:  knee")] {
            #expect(original.contains(edit), "the record holds \(edit)")
            let tampered = folder.appendingPathComponent("tampered.json")
            try original.replacingOccurrences(of: edit, with: replacement).write(to: tampered, atomically: true, encoding: .utf8)
            let result = try StudykitProcess.run(["consent", "verify", tampered.path, "--trust-embedded-key"])
            #expect(result.status == 1, "editing \(edit) must be caught")
            #expect(!result.stdout.contains("valid\n") && result.stdout.contains("tampered.json: "))
        }
    }

    @Test func sealRefusesAMissingSignatureNamingIt() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unsigned = folder.appendingPathComponent("unsigned.json")
        try #"{"signatures": [], "answers": {}}"#.write(to: unsigned, atomically: true, encoding: .utf8)
        let result = try StudykitProcess.run([
            "consent", "seal", "--document", example("recover-consent.json"), "--signed", unsigned.path, "--participant", "p",
            "--study-id", "recover", "--study-name", "Recover", "--data", folder.path, "--output", folder.appendingPathComponent("r.json").path,
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("signature 'participant' was not given"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("r.json").path))
    }

    /// Printing a record whose HTML fails its own hash gave a forged page the genuine footer.
    @Test func renderRefusesARecordThatDoesNotVerify() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(contentsOfFile: example("recover-record.json"), encoding: .utf8)
        let tampered = folder.appendingPathComponent("tampered.json")
        try original.replacingOccurrences(of: "Recover: knee", with: "Recover:  knee").write(to: tampered, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("forged.html")
        let result = try StudykitProcess.run(["consent", "render", "--document", example("recover-consent.json"), "--record", tampered.path,
                                              "--output", output.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("does not verify, so it is not printed: the HTML's SHA-256 is"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // The genuine record still prints, and a key other than its own is refused.
        let genuine = try StudykitProcess.run(["consent", "render", "--document", example("recover-consent.json"), "--record",
                                               example("recover-record.json"), "--output", output.path])
        #expect(genuine.status == 0, "\(genuine.stderr)")
        let otherKey = try StudykitProcess.run(["consent", "render", "--document", example("recover-consent.json"), "--record",
                                                example("recover-record.json"), "--output", output.path,
                                                "--public-key", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="])
        #expect(otherKey.status != 0 && otherKey.stderr.contains("signed by key"), "\(otherKey.stderr)")
    }

    /// A name with U+202E was sealed and then printed reversed, so the server's own PDF failed `verify --pdf`.
    @Test func sealRefusesANameWithADirectionOverrideOrAControlCharacter() throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let drawn = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: example("recover-signed.json")))) as! [String: Any]
        for (name, character) in [("Alex\u{202E}reteP", "U+202E RIGHT-TO-LEFT OVERRIDE"), ("Alex\u{1B}[2J", "U+001B")] {
            var signature = (drawn["signatures"] as! [[String: Any]])[0]
            signature["givenName"] = name
            let signed = folder.appendingPathComponent("signed.json")
            try JSONSerialization.data(withJSONObject: ["signatures": [signature]]).write(to: signed)
            let record = folder.appendingPathComponent("record.json")
            let result = try StudykitProcess.run([
                "consent", "seal", "--document", example("recover-consent.json"), "--signed", signed.path, "--participant", "p-1",
                "--study-id", "recover", "--study-name", "Recover", "--data", folder.appendingPathComponent("data").path, "--output", record.path,
            ])
            #expect(result.status != 0)
            #expect(result.stderr.contains("the given name of signature 'participant' holds \(character)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: record.path))
        }
    }

    @Test func renderRefusesAnOutputThatIsNeitherPDFNorHTML() throws {
        let result = try StudykitProcess.run(["consent", "render", "--document", example("recover-consent.json"), "--output", "/tmp/x.docx"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--output must end in .pdf or .html"))
    }

    /// Japanese and Chinese: each document sealed with a drawn signature, printed from its record, then read back.
    @Test(arguments: [("ja", "recover-consent.ja.json", "膝リハビリテーション研究", "山田", "花子", "署名"),
                      ("zh-Hans", "recover-consent.zh-Hans.json", "膝关节康复研究", "王", "秀英", "签名")])
    func aCJKRecordPrintsItsTextFooterAndSignature(language: String, document: String, titleText: String,
                                                  familyName: String, givenName: String, signatureCaption: String) throws {
        let folder = try StudykitProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let drawn = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: example("recover-signed.json")))) as! [String: Any]
        var signature = (drawn["signatures"] as! [[String: Any]])[0]
        signature["givenName"] = givenName
        signature["familyName"] = familyName
        let signed = folder.appendingPathComponent("signed.json")
        try JSONSerialization.data(withJSONObject: ["signatures": [signature]]).write(to: signed)
        let record = folder.appendingPathComponent("record.json")
        let seal = try StudykitProcess.run([
            "consent", "seal", "--document", example(document), "--signed", signed.path, "--participant", "p-\(language)",
            "--study-id", "recover", "--study-name", "Recover", "--time-zone", language == "ja" ? "Asia/Tokyo" : "Asia/Shanghai",
            "--data", folder.appendingPathComponent("data").path, "--output", record.path,
        ])
        #expect(seal.status == 0, "\(seal.stderr)")

        let signedPDF = folder.appendingPathComponent("signed.pdf")
        let render = try StudykitProcess.run(["consent", "render", "--document", example(document), "--record", record.path, "--output", signedPDF.path])
        #expect(render.status == 0, "\(render.stderr)")
        let blankPDF = folder.appendingPathComponent("blank.pdf")
        #expect(try StudykitProcess.run(["consent", "render", "--document", example(document), "--output", blankPDF.path]).status == 0)

        let pages = try PDFTools.pageCount(signedPDF)
        #expect(pages >= 2)
        let all = try PDFTools.text(signedPDF)
        #expect(all.contains(titleText))
        let recordText = try String(contentsOf: record, encoding: .utf8)
        let hash = try #require(recordText.firstMatch(of: /"htmlSHA256":"([0-9a-f]{64})"/)?.1)
        for page in 1...pages {
            let text = try PDFTools.text(signedPDF, page: page).filter { !$0.isWhitespace }
            #expect(text.contains("Recover") && text.contains(familyName + givenName) && text.contains(String(hash)),
                    "page \(page) of \(pages) carries the footer")
        }
        #expect(try StudykitProcess.run(["consent", "verify", record.path, "--pdf", signedPDF.path, "--trust-embedded-key"]).stdout == "valid\n")

        // Above the signature caption the signed and the blank page hold the same heading and signature line; the
        // drawing is the difference.
        let signedInk = try PDFTools.inkAboveLine(signatureCaption, in: signedPDF, page: pages)
        let blankInk = try PDFTools.inkAboveLine(signatureCaption, in: blankPDF, page: try PDFTools.pageCount(blankPDF))
        #expect(signedInk - blankInk > 150, "signature ink: signed \(signedInk) px, blank \(blankInk) px")
    }
}

/// poppler-utils, as a person checking a PDF would use them.
enum PDFTools {
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        return data
    }

    static func pageCount(_ pdf: URL) throws -> Int {
        let info = String(decoding: try run("pdfinfo", [pdf.path]), as: UTF8.self)
        return Int(info.firstMatch(of: /Pages:\s+(\d+)/)?.1 ?? "0") ?? 0
    }

    static func text(_ pdf: URL, page: Int? = nil) throws -> String {
        let pages = page.map { ["-f", "\($0)", "-l", "\($0)"] } ?? []
        return String(decoding: try run("pdftotext", pages + [pdf.path, "-"]), as: UTF8.self)
    }

    /// Dark pixels (at 72 dpi, one pixel a point) in the 90 points above the text line that reads exactly
    /// `caption` on `page`, across the left half of the page.
    static func inkAboveLine(_ caption: String, in pdf: URL, page: Int) throws -> Int {
        let layout = String(decoding: try run("pdftotext", ["-bbox-layout", "-f", "\(page)", "-l", "\(page)", pdf.path, "-"]), as: UTF8.self)
        var top: Double?
        for line in layout.matches(of: /<line xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">(.*?)<\/line>/.dotMatchesNewlines()) {
            let words = line.2.matches(of: />([^<]*)<\/word>/).map { String($0.1) }.joined()
            if words == caption { top = Double(line.1) }
        }
        guard let top else { return 0 }
        let image = try run("pdftoppm", ["-r", "72", "-gray", "-f", "\(page)", "-l", "\(page)", pdf.path])
        // PGM: "P5\n<width> <height>\n255\n" then one byte per pixel.
        var newlines = 0, index = 0
        while newlines < 3 && index < image.count { if image[index] == 0x0A { newlines += 1 }; index += 1 }
        let header = String(decoding: image[..<index], as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard header.count >= 4, let width = Int(header[1]), let height = Int(header[2]) else { return 0 }
        let pixels = image[index...]
        var dark = 0
        for row in max(0, Int(top) - 90)..<min(height, Int(top) - 1) {
            for column in 0..<width / 2 where pixels[pixels.startIndex + row * width + column] < 128 { dark += 1 }
        }
        return dark
    }
}
