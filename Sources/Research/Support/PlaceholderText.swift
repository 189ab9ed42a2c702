/// Texts with `{name}` placeholders, as the built-in string tables write them ("Step {current} of {total}").
public enum PlaceholderText {
    /// `text` with each `{name}` replaced by `values[name]`, in one pass: a value is never read for placeholders itself,
    /// and a `{name}` without a value stays as written.
    ///
    /// ```swift
    /// PlaceholderText.fill("Step {current} of {total}", ["current": 2, "total": 5])   // "Step 2 of 5"
    /// ```
    public static func fill(_ template: String, _ values: [String: any CustomStringConvertible]) -> String {
        var rest = template[...]
        var text = ""
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let name = rest.index(after: open)
            if let close = rest[name...].firstIndex(of: "}"), let value = values[String(rest[name..<close])] {
                text += value.description
                rest = rest[rest.index(after: close)...]
            } else {
                text += "{"
                rest = rest[name...]
            }
        }
        return text + rest
    }
}
