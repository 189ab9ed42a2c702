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
    /// A choice the form also posts, one of its options required (what happens to the data of a participant who
    /// leaves); nil for none.
    public var choice: Choice?

    /// A required choice among a few options, shown as radio buttons.
    public struct Choice: Sendable {
        /// The field's name.
        public var name: String
        /// The question.
        public var legend: String
        /// Each option's posted value and label, in order.
        public var options: [(value: String, label: String)]
        /// What is wrong with the last post (no option chosen); nil for nothing.
        public var error: String?

        /// Creates a choice; see the properties.
        public init(name: String, legend: String, options: [(value: String, label: String)], error: String? = nil) {
            self.name = name
            self.legend = legend
            self.options = options
            self.error = error
        }
    }

    /// Creates a confirmation page; see the properties.
    public init(title: String, text: String, post: TaskCard.Post, confirm: String, cancelURL: String,
                reasonField: (name: String, label: String)? = nil, choice: Choice? = nil) {
        self.reasonField = reasonField
        self.choice = choice
        self.title = title
        self.text = text
        self.post = post
        self.confirm = confirm
        self.cancelURL = cancelURL
    }
}
