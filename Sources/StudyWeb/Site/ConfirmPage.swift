/// A page that asks before something is taken back: what will happen, a button that does it (a form that posts)
/// and a link that leaves things as they are.
///
/// ```swift
/// let page = ConfirmPage(title: "Take back your answers?", text: "…", post: TaskCard.Post(action: "/tasks/pain/3/withdraw"),
///                        confirm: "Take back", cancelURL: "/")
/// ```
public struct ConfirmPage: Sendable {
    /// The question, the page's heading.
    public var title: String
    /// What will happen; each line a paragraph.
    public var text: String
    /// Where the confirming form posts, with its hidden fields.
    public var post: TaskCard.Post
    /// The confirming button's label.
    public var confirm: String
    /// Where "Cancel" leads.
    public var cancelURL: String
    /// A text field the form also posts (its name and label), such as why the participant leaves; nil for none.
    public var reasonField: (name: String, label: String)?

    /// Creates a confirmation page; see the properties.
    public init(title: String, text: String, post: TaskCard.Post, confirm: String, cancelURL: String,
                reasonField: (name: String, label: String)? = nil) {
        self.reasonField = reasonField
        self.title = title
        self.text = text
        self.post = post
        self.confirm = confirm
        self.cancelURL = cancelURL
    }
}
