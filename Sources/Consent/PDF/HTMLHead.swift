/// Adding markup to the head of a complete HTML document, for printing.
enum HTMLHead {
    /// `html` with `fragment` at the end of its head (before `</head>`); without a head, before `<body>`, else after
    /// the doctype, else at the start.
    static func inserting(_ fragment: String, into html: String) -> String {
        var result = html
        if let anchor = html.range(of: "</head", options: .caseInsensitive) ?? html.range(of: "<body", options: .caseInsensitive) {
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
