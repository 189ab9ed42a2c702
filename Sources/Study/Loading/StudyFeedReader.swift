import Foundation
import JSONDiagnostics

/// Reads `study.yaml`'s `feed` cards and the images that cards and the theme name, every fault named with its path.
struct StudyFeedReader {
    /// The study folder: images must be inside it, as participants are served them.
    let folder: URL
    /// Reads a file of the study folder, reporting a missing or oversized one at `reference`.
    let readFile: (_ path: String, _ reference: String, _ reader: inout DocumentReader) -> Data?
    /// The images read so far, by their path as written.
    var images: [String: StudyImage] = [:]

    static let cardKeys = ["id", "kind", "title", "image", "text", "article", "links"]
    static let kinds = ["tip", "featured", "links"]

    mutating func read(_ value: JSONTree?, reader: inout DocumentReader) -> [StudyFeedCard] {
        guard value != nil, let list = reader.array(value, path: "feed") else { return [] }
        var cards: [StudyFeedCard] = []
        var seen: [String: Int] = [:]
        for (index, element) in list.enumerated() {
            let path = "feed[\(index)]"
            guard let pairs = reader.object(element, path: path, known: Self.cardKeys, required: ["id", "kind", "title"]) else { continue }
            func field(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
            let id = reader.identifier(field("id"), path: "\(path).id", index: index, seen: &seen, kind: "feed card", list: "feed")
            let title = reader.string(field("title"), path: "\(path).title")
            let image = field("image") == nil ? nil : readImage(field("image"), path: "\(path).image", reader: &reader)
            let kind = reader.choice(field("kind"), path: "\(path).kind", allowed: Self.kinds)
            let needs = ["tip": "text", "featured": "article", "links": "links"]
            for (key, owner) in [("text", "tip"), ("article", "featured"), ("links", "links")] where field(key) != nil && kind != nil && kind != owner {
                reader.report("\(path).\(key)", "only a \(owner) card has '\(key)'; a \(kind ?? "") card has '\(needs[kind ?? ""] ?? "")'")
            }
            var content: StudyFeedCard.Content?
            switch kind {
            case "tip":
                content = reader.string(field("text"), path: "\(path).text").map { .tip(text: $0) }
                if field("text") == nil { reader.report("\(path).text", "is required but missing (the tip's text)") }
            case "featured":
                if field("article") == nil { reader.report("\(path).article", "is required but missing (a Markdown file)") }
                if let file = reader.string(field("article"), path: "\(path).article"),
                   let data = readFile(file, "\(path).article", &reader) {
                    if let text = String(data: data, encoding: .utf8) {
                        content = .featured(markdown: text)
                    } else {
                        reader.report("\(path).article", "'\(file)' is not UTF-8 text")
                    }
                }
            case "links":
                content = readLinks(field("links"), path: "\(path).links", reader: &reader).map(StudyFeedCard.Content.links)
            default:
                break
            }
            guard let id, let title, let content else { continue }
            cards.append(StudyFeedCard(id: id, title: title, image: image, content: content))
        }
        return cards
    }

    /// An image file of the study folder: inside it, one of ``StudyImage/contentTypes``' extensions, at most
    /// ``StudyImage/maximumBytes``. Returns its path as written, and keeps its bytes in ``images``.
    mutating func readImage(_ value: JSONTree?, path: String, reader: inout DocumentReader) -> String? {
        guard let file = reader.string(value, path: path) else { return nil }
        let url = folder.appendingPathComponent(file).standardizedFileURL
        guard !file.hasPrefix("/"), url.path.hasPrefix(folder.standardizedFileURL.path + "/") else {
            reader.report(path, "'\(file)' is outside the study folder; participants are shown only files inside it")
            return nil
        }
        guard let contentType = StudyImage.contentTypes[url.pathExtension.lowercased()] else {
            reader.report(path, "'\(file)' is not an image StudyKit serves (\(StudyImage.contentTypes.keys.sorted().joined(separator: ", ")))")
            return nil
        }
        guard let data = readFile(file, path, &reader) else { return nil }
        guard data.count <= StudyImage.maximumBytes else {
            reader.report(path, "'\(file)' is \(data.count) bytes; an image on a participant's page may have \(StudyImage.maximumBytes) (512 KiB)")
            return nil
        }
        images[file] = StudyImage(data: data, contentType: contentType)
        return file
    }

    private func readLinks(_ value: JSONTree?, path: String, reader: inout DocumentReader) -> [StudyFeedCard.Link]? {
        guard let list = reader.array(value, path: path) else {
            if value == nil { reader.report(path, "is required but missing (a list of links)") }
            return nil
        }
        if list.isEmpty { reader.report(path, "a links card needs at least one link") }
        let valueKey: [StudyFeedCard.Link.Kind: String] = [.website: "url", .call: "phone", .message: "phone", .email: "email", .map: "address"]
        var links: [StudyFeedCard.Link] = []
        for (index, element) in list.enumerated() {
            let linkPath = "\(path)[\(index)]"
            guard let pairs = reader.object(element, path: linkPath, known: ["type", "label", "url", "phone", "email", "address"],
                                            required: ["type", "label"]) else { continue }
            func field(_ key: String) -> JSONTree? { pairs.first { $0.key == key }?.value }
            guard let type = reader.choice(field("type"), path: "\(linkPath).type", allowed: StudyFeedCard.Link.Kind.allCases.map(\.rawValue)),
                  let kind = StudyFeedCard.Link.Kind(rawValue: type), let key = valueKey[kind] else { continue }
            let label = reader.string(field("label"), path: "\(linkPath).label")
            guard field(key) != nil else {
                reader.report("\(linkPath).\(key)", "is required but missing (a \(type) link needs its \(key))")
                continue
            }
            guard let label, let text = reader.string(field(key), path: "\(linkPath).\(key)") else { continue }
            if kind == .website, URL(string: text).flatMap(\.scheme).map({ ["http", "https"].contains($0.lowercased()) }) != true {
                reader.report("\(linkPath).url", "'\(text)' is not an http or https address")
                continue
            }
            if kind == .call || kind == .message, !text.contains(where: \.isNumber) {
                reader.report("\(linkPath).phone", "'\(text)' has no digits to dial")
                continue
            }
            links.append(StudyFeedCard.Link(kind: kind, label: label, value: text))
        }
        return links.isEmpty ? nil : links
    }
}
