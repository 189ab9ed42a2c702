import Foundation

/// The names of calendars in StudyKit's JSON: CLDR's calendar keys (`gregorian`, `japanese`, `islamic-umalqura`…).
enum CalendarIdentifierName {
    private static let table: [(Calendar.Identifier, String)] = [
        (.gregorian, "gregorian"), (.buddhist, "buddhist"), (.chinese, "chinese"), (.coptic, "coptic"),
        (.ethiopicAmeteMihret, "ethiopic"), (.ethiopicAmeteAlem, "ethioaa"), (.hebrew, "hebrew"), (.iso8601, "iso8601"),
        (.indian, "indian"), (.islamic, "islamic"), (.islamicCivil, "islamic-civil"), (.japanese, "japanese"),
        (.persian, "persian"), (.republicOfChina, "roc"), (.islamicTabular, "islamic-tbla"), (.islamicUmmAlQura, "islamic-umalqura"),
    ]

    static func name(of identifier: Calendar.Identifier) -> String {
        table.first { $0.0 == identifier }?.1 ?? "gregorian"
    }

    static func identifier(named name: String) -> Calendar.Identifier? {
        table.first { $0.1 == name }?.0
    }
}
