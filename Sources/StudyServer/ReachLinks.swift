import Foundation
import Study
import StudyWeb

/// The URLs of links that reach outside the app, made one way for contacts and links cards: `tel:` and `sms:` with only
/// `+` and ASCII digits, `mailto:` percent-encoded, a map as OpenStreetMap's search for the address, a website as given
/// (the loader accepts only http and https).
enum ReachLinks {
    static func call(_ number: String, detail: String) -> ReachLink {
        ReachLink(kind: .call, href: "tel:" + dialable(number), detail: detail)
    }

    static func message(_ number: String, detail: String) -> ReachLink {
        ReachLink(kind: .message, href: "sms:" + dialable(number), detail: detail)
    }

    static func email(_ address: String, detail: String) -> ReachLink {
        ReachLink(kind: .email, href: "mailto:" + (address.addingPercentEncoding(withAllowedCharacters: mailbox) ?? address), detail: detail)
    }

    static func map(_ address: String, detail: String) -> ReachLink {
        var query = CharacterSet.urlQueryAllowed
        query.remove(charactersIn: "&=+?#")
        return ReachLink(kind: .map, href: "https://www.openstreetmap.org/search?query=" + (address.addingPercentEncoding(withAllowedCharacters: query) ?? ""),
                         detail: detail)
    }

    /// A links card's link, labelled with its own label.
    static func link(_ link: StudyFeedCard.Link) -> ReachLink {
        switch link.kind {
        case .website: ReachLink(kind: .website, href: link.value, detail: link.label)
        case .call: call(link.value, detail: link.label)
        case .message: message(link.value, detail: link.label)
        case .email: email(link.value, detail: link.label)
        case .map: map(link.value, detail: link.label)
        }
    }

    /// A telephone number as a `tel:` or `sms:` URL takes it: digits and a leading `+`, nothing else.
    static func dialable(_ number: String) -> String {
        let digits = number.filter { $0.isASCII && $0.isNumber }
        return (number.trimmingCharacters(in: .whitespaces).hasPrefix("+") ? "+" : "") + digits
    }

    /// What an address may hold unescaped in a `mailto:` URL.
    private static let mailbox = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "@.-_+"))
}
