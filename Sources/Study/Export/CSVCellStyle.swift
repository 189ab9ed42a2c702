/// How a CSV export writes its cells: ``exact`` (the default), the data as it is, for R, pandas, REDCap and every
/// program that reads a CSV file as data; or ``forSpreadsheets``, for a file someone will open in Excel, LibreOffice
/// Calc or Google Sheets, which run a cell that begins with `=` as a formula (`=HYPERLINK(…)` in a participant's
/// answer would be a link the study team is invited to follow).
///
/// ```swift
/// let exporter = CSVLongExporter(cells: .forSpreadsheets)
/// CSVCellStyle.forSpreadsheets.written("=1+2")   // "'=1+2"
/// CSVCellStyle.forSpreadsheets.written("-3")     // "-3": a number stays a number
/// ```
///
/// For spreadsheets, following OWASP's advice on CSV injection, a cell that begins with `=`, `+`, `-`, `@`, a tab or
/// a carriage return gets a single quote in front, which spreadsheets read as "this is text" and do not show. One
/// exception: a cell that is a plain number (``isPlainNumber(_:)``: `-3`, `+1.5`, `-2.5e-3`) is left alone, so that a
/// negative number is still a number the spreadsheet can add up; a spreadsheet reads such a cell as that number and
/// runs nothing. Every CSV file of every export is written through ``CSVFileWriter``, which applies the style to each
/// cell, the header's included: `answers.csv`, the files of `csv-wide` and its data dictionary, `outcomes.csv` and
/// `consents.csv`.
public enum CSVCellStyle: String, Hashable, Sendable, CaseIterable {
    /// Every cell exactly as the data is (the default).
    case exact
    /// A text cell that a spreadsheet would run as a formula is written with `'` in front.
    case forSpreadsheets = "for-spreadsheets"

    /// The characters that make a spreadsheet read a cell as a formula when the cell begins with one: `=`, `+`, `-`,
    /// `@`, tab and carriage return (OWASP).
    public static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `cell` as this style writes it.
    public func written(_ cell: String) -> String {
        guard self == .forSpreadsheets, let first = cell.unicodeScalars.first, Self.formulaStarts.contains(first),
              !Self.isPlainNumber(cell) else { return cell }
        return "'" + cell
    }

    /// Whether `text` is a plain decimal number and nothing else: an optional sign, digits with an optional decimal
    /// point and fraction (or a fraction alone), and an optional exponent (`-3`, `+0.5`, `-.5`, `-2.5e-3`). Spaces,
    /// thousands separators, `inf` and `nan` are not plain numbers.
    public static func isPlainNumber(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        func digits() -> Int {
            let count = scalars.prefix { $0.value >= 0x30 && $0.value <= 0x39 }.count
            scalars = scalars.dropFirst(count)
            return count
        }
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
        var mantissa = digits()
        if scalars.first == "." {
            scalars = scalars.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let e = scalars.first, e == "e" || e == "E" {
            scalars = scalars.dropFirst()
            if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return scalars.isEmpty
    }
}
