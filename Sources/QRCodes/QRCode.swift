import CQRencode
import Foundation

/// A QR code (ISO/IEC 18004) of some text, made by libqrencode, and drawn as SVG.
///
/// ```swift
/// let code = try QRCode(encoding: "https://study.example.org/join/7QH4-K2MA")
/// let svg = code.svg(title: "Invitation link")   // <svg … role="img"><title>Invitation link</title><path …/></svg>
/// ```
public struct QRCode: Hashable, Sendable {
    /// How much of the code may be damaged and still read.
    public enum Correction: Sendable {
        /// About 7 %.
        case low
        /// About 15 %: the usual choice for a printed link.
        case medium
        /// About 25 %.
        case quartile
        /// About 30 %.
        case high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// The QR version (1–40): the code is `17 + 4 × version` modules wide.
    public let version: Int
    /// The number of modules along each side (without the quiet zone).
    public let width: Int
    /// Each module, row by row from the top: true for a dark one.
    public let modules: [Bool]

    /// The code of `text`'s UTF-8 bytes, in the smallest version that holds them at `correction`.
    ///
    /// Throws ``QRCodeError/tooLong(bytes:)`` when no version holds them (about 2,300 bytes at medium correction).
    public init(encoding text: String, correction: Correction = .medium) throws(QRCodeError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .empty }
        guard let code = bytes.withUnsafeBufferPointer({ QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, correction.level) }) else {
            throw .tooLong(bytes: bytes.count)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        version = Int(code.pointee.version)
        self.width = width
        // libqrencode's byte per module: bit 0 is the colour, the other bits say what the module is part of.
        modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width).map { $0 & 1 == 1 }
    }

    /// Whether the module in `row` and `column` (from 0, top left) is dark.
    public func isDark(row: Int, column: Int) -> Bool { modules[row * width + column] }

    /// The code as an SVG image: each row's runs of dark modules as strokes of one path on a white square with a quiet
    /// zone of `quietZone` modules (4, as the standard asks), scaled by the page; `title` is what a screen reader says.
    /// About 1.5 KB for a link of 50 characters.
    public func svg(title: String, quietZone: Int = 4) -> String {
        var path = ""
        path.reserveCapacity(width * width)
        for row in 0..<width {
            var x = 0 // where the pen is in this row, in modules from the code's left edge
            var column = 0
            var started = false
            while column < width {
                guard isDark(row: row, column: column) else { column += 1; continue }
                var end = column
                while end < width, isDark(row: row, column: end) { end += 1 }
                // The pen moves along the middle of the row: a run is a horizontal stroke one module thick.
                if !started {
                    path += "M\(column + quietZone) \(row + quietZone).5"
                    started = true
                } else {
                    path += "m\(column - x) 0"
                }
                path += "h\(end - column)"
                x = end
                column = end
            }
        }
        let side = width + 2 * quietZone
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" role=\"img\" shape-rendering=\"crispEdges\">"
            + "<title>\(Self.escaped(title))</title><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path d=\"\(path)\" stroke=\"#000\"/></svg>"
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// Why a QR code could not be made.
public enum QRCodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// There was nothing to encode.
    case empty
    /// No QR version holds this many bytes at the correction asked for.
    case tooLong(bytes: Int)

    public var description: String {
        switch self {
        case .empty: "a QR code needs some text"
        case .tooLong(let bytes): "\(bytes) bytes do not fit in a QR code at this correction level"
        }
    }
}
