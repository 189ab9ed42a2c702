import Foundation
// Interim until the formats branch merges (replaced wholesale by it).
public struct FormatProblem: Hashable, Sendable {
    public var path: String
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
}
extension AnswerFormat {
    public func constructionProblems() -> [FormatProblem] {
        if case .scale(let f) = self, f.maximum <= f.minimum { return [FormatProblem(path: "maximum", message: "must be greater than minimum (\(f.maximum) < \(f.minimum))")] }
        return []
    }
}
