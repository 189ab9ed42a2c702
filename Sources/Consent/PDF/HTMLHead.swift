/// Adding markup to the head of a complete HTML document, for printing.
package enum HTMLHead {
    /// `html` with `fragment` at the start of its head (right after `<head>`, so that it applies to everything in
    /// the document, as a Content-Security-Policy must); without a `<head>` tag, as ``inserting(_:into:)`` places it.
    package static func insertingFirst(_ fragment: String, into html: String) -> String {
        guard let open = html.range(of: "<head(\\s[^>]*)?>", options: [.regularExpression, .caseInsensitive]) else {
            return inserting(fragment, into: html)
        }
        var result = html
        result.insert(contentsOf: fragment, at: open.upperBound)
        return result
    }

    /// `html` with `fragment` at the end of its head (before `</head>`); without a head, before `<body>`, else after
    /// the doctype, else at the start.
    package static func inserting(_ fragment: String, into html: String) -> String {
        var result = html
        // `</header>` and `<bodyguard>` are not the head's end or the body.
        if let anchor = html.range(of: "</head\\s*>", options: [.regularExpression, .caseInsensitive])
            ?? html.range(of: "<body[\\s>]", options: [.regularExpression, .caseInsensitive]) {
            result.insert(contentsOf: fragment, at: anchor.lowerBound)
            return result
        }
        if html.range(of: "<!doctype", options: [.caseInsensitive, .anchored]) != nil, let close = html.firstIndex(of: ">") {
            result.insert(contentsOf: fragment, at: html.index(after: close))
            return result
        }
        return fragment + html
    }
}
