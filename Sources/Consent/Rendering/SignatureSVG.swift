import Foundation
import Research

/// A drawn signature as inline SVG: a `viewBox` of the drawing's width and height and one `path` per stroke.
///
/// Strokes use round caps and joins, so a stroke of a single point (a dot over an "i") still shows as a dot.
/// Coordinates are printed with at most two decimals and a `.`, whatever the locale.
public enum SignatureSVG {
    /// The `<svg>` element for `signature`; `label` (escaped) names it for screen readers.
    public static func svg(for signature: Signature, label: String) -> String {
        let width = number(signature.width), height = number(signature.height)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"signature-svg\" viewBox=\"0 0 \(width) \(height)\""
        svg += " width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"\(HTMLEscaping.escape(label))\">"
        for stroke in signature.strokes where !stroke.isEmpty {
            svg += "<path d=\"\(pathData(for: stroke))\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"\(number(strokeWidth(for: signature)))\""
            svg += " stroke-linecap=\"round\" stroke-linejoin=\"round\"/>"
        }
        return svg + "</svg>"
    }

    /// `M x y L x y …` for a stroke; a single point becomes a zero-length segment, which round caps draw as a dot.
    static func pathData(for stroke: [SignaturePoint]) -> String {
        guard let first = stroke.first else { return "" }
        var data = "M\(number(first.x)) \(number(first.y))"
        if stroke.count == 1 { return data + " l0 0" }
        for point in stroke.dropFirst() { data += " L\(number(point.x)) \(number(point.y))" }
        return data
    }

    /// A pen width in proportion to the drawing area: 1/100 of its smaller side, at least 1.
    static func strokeWidth(for signature: Signature) -> Double {
        max(1, min(signature.width, signature.height) / 100)
    }

    /// A coordinate with at most two decimals, without trailing zeros: `12`, `12.5`, `12.25`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
