import Foundation

/// How the study looks: its tint colour, which the web app turns into CSS variables.
public struct StudyTheme: Hashable, Sendable {
    /// The tint colour as `#RRGGBB` (uppercase hex digits), the colour of buttons, rings and links.
    public var tint: String
    /// The study's logo, a file of the study folder (``StudyDefinition/images``) shown in every page's header; nil for none.
    public var logo: String?

    /// The tint StudyKit uses when a study names none: a blue with enough contrast on white for WCAG AA text.
    public static let defaultTint = "#0A66C2"

    /// Creates a theme with a `#RRGGBB` tint.
    public init(tint: String = StudyTheme.defaultTint, logo: String? = nil) {
        self.tint = tint
        self.logo = logo
    }

    /// Whether `text` is a colour in the `#RRGGBB` form.
    public static func isHexColour(_ text: String) -> Bool {
        text.range(of: "^#[0-9A-Fa-f]{6}$", options: .regularExpression) != nil
    }
}
