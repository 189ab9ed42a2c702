import Foundation
import QRCodes
import Testing

/// QR codes made by ``QRCode``, read back by a decoder nobody here wrote (zbar's `zbarimg`, from Debian's zbar-tools,
/// which `make test` installs), and the SVG's structure.
@Suite("QR codes")
struct QRCodeTests {
    /// The code drawn as a plain PBM image (8 pixels a module, a quiet zone of 4), for zbarimg.
    private func pbm(_ code: QRCode) -> Data {
        let scale = 8, quiet = 4, side = (code.width + 2 * quiet) * scale
        var text = "P1\n\(side) \(side)\n"
        for y in 0..<side {
            let row = y / scale - quiet
            var line = ""
            for x in 0..<side {
                let column = x / scale - quiet
                let dark = (0..<code.width).contains(row) && (0..<code.width).contains(column) && code.isDark(row: row, column: column)
                line += dark ? "1 " : "0 "
            }
            text += line + "\n"
        }
        return Data(text.utf8)
    }

    private static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(arguments: ["https://study.example.org/join/7QH4-K2MA-9XCV-PL3D", "http://127.0.0.1:8080/join/a", "Grüße, 東京 — ✓"])
    func aDecoderReadsBackTheText(_ text: String) throws {
        let code = try QRCode(encoding: text)
        guard let zbarimg = Self.zbarimg else {
            Issue.record("zbarimg is not installed: apt-get install zbar-tools (make test installs it)")
            return
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pbm")
        try pbm(code).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zbarimg)
        process.arguments = ["--raw", "--quiet", "-Sbinary", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines) == text)
    }

    @Test func theSmallestVersionIsChosenAndTheFindersAreInTheirCorners() throws {
        let code = try QRCode(encoding: "https://study.example.org/join/7QH4-K2MA-9XCV-PL3D")
        // 48 bytes in byte mode at medium correction: version 3 holds 42, version 4 (33 × 33 modules) 62.
        #expect(code.version == 4 && code.width == 33 && code.modules.count == 33 * 33)
        // Each finder pattern: a dark 7 × 7 ring around a light ring around a dark 3 × 3 square.
        for (top, left) in [(0, 0), (0, code.width - 7), (code.width - 7, 0)] {
            for row in 0..<7 {
                for column in 0..<7 {
                    let ring = max(abs(row - 3), abs(column - 3))
                    #expect(code.isDark(row: top + row, column: left + column) == (ring != 2), "finder at \(top),\(left): \(row),\(column)")
                }
            }
        }
    }

    @Test func theSVGDrawsEveryDarkModuleOnceWithItsTitleEscaped() throws {
        let code = try QRCode(encoding: "https://example.org/a")
        let svg = code.svg(title: "Link <1> & \"2\"")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(code.width + 8) \(code.width + 8)\""))
        #expect(svg.contains("<title>Link &lt;1&gt; &amp; &quot;2&quot;</title>"))
        // The runs' lengths add up to the dark modules.
        let runs = svg.split(separator: "h").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(runs.reduce(0, +) == code.modules.filter { $0 }.count)
    }

    @Test func nothingAndTooMuchAreRefused() {
        #expect(throws: QRCodeError.empty) { try QRCode(encoding: "") }
        #expect(throws: QRCodeError.tooLong(bytes: 4000)) { try QRCode(encoding: String(repeating: "x", count: 4000)) }
    }
}
