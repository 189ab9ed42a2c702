import Foundation
import JSONDiagnostics

/// Finds keys in consent JSON that StudyKit does not read, so that a typo such as `"sumary"` is reported with
/// a "did you mean" instead of being silently ignored.
///
/// The known keys are the coding keys of the model types, so they cannot drift from what the decoders read.
enum ConsentKeyChecker {
    /// Unknown keys anywhere in a consent document object.
    static func problems(inDocument document: [String: Any]) -> [ConsentDefinitionError] {
        var problems = unknownKeys(in: document, known: ConsentDocument.CodingKeys.allCases.map(\.stringValue), path: "")
        for (index, section) in (document["sections"] as? [Any] ?? []).enumerated() {
            guard let section = section as? [String: Any] else { continue }
            let path = "sections[\(index)]"
            problems += unknownKeys(in: section, known: ConsentSection.CodingKeys.allCases.map(\.stringValue), path: path)
            if let image = section["customImage"] as? [String: Any] {
                problems += unknownKeys(in: image, known: ["url", "altText"], path: "\(path).customImage")
            }
        }
        for (index, signature) in (document["signatures"] as? [Any] ?? []).enumerated() {
            guard let signature = signature as? [String: Any] else { continue }
            let path = "signatures[\(index)]"
            problems += unknownKeys(in: signature, known: ConsentSignature.CodingKeys.allCases.map(\.stringValue), path: path)
            if let drawing = signature["signature"] as? [String: Any] {
                problems += unknownKeys(in: drawing, known: ["width", "height", "strokes"], path: "\(path).signature")
                for (strokeIndex, stroke) in (drawing["strokes"] as? [Any] ?? []).enumerated() {
                    for (pointIndex, point) in (stroke as? [Any] ?? []).enumerated() {
                        guard let point = point as? [String: Any] else { continue }
                        problems += unknownKeys(in: point, known: ["x", "y", "t"],
                                                path: "\(path).signature.strokes[\(strokeIndex)][\(pointIndex)]")
                    }
                }
            }
        }
        return problems
    }

    /// One problem per key of `object` that is not in `known`, in key order, each with the nearest known key
    /// as a suggestion when one is close.
    static func unknownKeys(in object: [String: Any], known: [String], path: String) -> [ConsentDefinitionError] {
        let knownSet = Set(known)
        return object.keys.sorted().filter { !knownSet.contains($0) }.map { key in
            let suggestion = JSONDiagnostics.closestKey(to: key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            return ConsentDefinitionError(path: path.isEmpty ? key : "\(path).\(key)",
                                          message: "unknown key; StudyKit does not read it\(suggestion)")
        }
    }
}
