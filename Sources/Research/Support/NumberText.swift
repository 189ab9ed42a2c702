/// A number as a person or a form writes it: `5`, not `5.0`; `2.5` as it is.
public enum NumberText {
    /// `value` without a useless `.0` (whole numbers below 10¹⁵ as integers), else its shortest spelling.
    public static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
