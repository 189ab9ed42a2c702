import Research

/// The daily page's content (the week, the task cards, the content cards) written straight to HTML from its view
/// model: the most visited page, made afresh after each of a participant's actions, is written in one pass instead
/// of through swift-mustache, whose lookup of every name by dynamic casts cost two thirds of making the page
/// (`scripts/bench_server.py`). The view model is the one ``SitePageBuilder`` makes; every text and attribute is
/// escaped (``HTMLEscaping``); the frame around it (head, header, navigation) is still the `site` template.
struct DailyPageHTML {
    /// The page as UTF-8 bytes while it is written: appending bytes costs a few hundred small appends less than
    /// appending strings, which check and update a string's counts and flags each time.
    private var html: [UInt8] = []
    private let csrf: CSRFFieldView?

    /// The HTML of `view`, its forms carrying `csrf`.
    static func write(_ view: HomeView, csrf: CSRFFieldView?) -> String {
        var html: [UInt8] = []
        write(view, csrf: csrf, to: &html)
        return String(decoding: html, as: UTF8.self)
    }

    /// Appends the HTML of `view`, its forms carrying `csrf`, to `html` as UTF-8.
    static func write(_ view: HomeView, csrf: CSRFFieldView?, to html: inout [UInt8]) {
        var writer = DailyPageHTML(csrf: csrf)
        swap(&writer.html, &html)
        writer.html.reserveCapacity(writer.html.count + 8_192)
        writer.page(view)
        swap(&writer.html, &html)
    }

    private init(csrf: CSRFFieldView?) {
        self.csrf = csrf
    }

    /// Markup written as it is: a literal's bytes are copied straight from the binary.
    private mutating func raw(_ text: StaticString) {
        html.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
    /// A whole number, in digits.
    private mutating func number(_ value: Int) { html.append(contentsOf: String(value).utf8) }
    private mutating func text(_ text: String) { HTMLEscaping.append(escaping: text, to: &html) }

    private mutating func page(_ view: HomeView) {
        raw("<div data-live>\n")
        if let week = view.week { self.week(week) }
        raw("<h1>"); text(view.title); raw("</h1>\n")
        if let day = view.day { raw("<p class=\"day\">"); text(day); raw("</p>\n") }
        if let notice = view.notice { raw("<p class=\"notice\" role=\"status\">"); text(notice); raw("</p>\n") }
        if let gate = view.gate { raw("<p class=\"gate\">"); text(gate); raw("</p>\n") }
        if let empty = view.empty { raw("<p>"); text(empty); raw("</p>\n") }
        if view.hasCards {
            raw("<ul class=\"cards\">\n")
            for card in view.cards { self.card(card) }
            raw("</ul>\n")
        }
        for card in view.content { content(card) }
        raw("</div>\n")
    }

    private mutating func week(_ week: WeekView) {
        raw("<nav class=\"week\" aria-label=\""); text(week.label); raw("\"><ol>\n")
        for day in week.days {
            raw("<li><a href=\""); text(day.href); raw("\" class=\""); text(day.classes); raw("\"")
            if day.selected { raw(" aria-current=\"date\"") }
            raw(" aria-label=\""); text(day.label); raw("\"><span>"); text(day.weekday)
            raw("</span><svg viewBox=\"0 0 36 36\" aria-hidden=\"true\"><circle r=\"15\" cx=\"18\" cy=\"18\"/>")
            raw("<circle class=\"p\" r=\"15\" cx=\"18\" cy=\"18\" pathLength=\"100\" stroke-dasharray=\""); number(day.dash); raw(" 100\"/></svg><b>")
            text(day.number); raw("</b></a></li>\n")
        }
        raw("</ol>\n<p class=\"weeknav\">")
        link(week.previous, rel: "prev", before: "‹ ")
        if let today = week.today { link(today) }
        link(week.next, rel: "next", after: " ›")
        raw("</p></nav>\n")
    }

    private mutating func link(_ link: LinkView, rel: StaticString? = nil, before: StaticString = "", after: StaticString = "") {
        raw("<a href=\""); text(link.href); raw("\"")
        if let rel { raw(" rel=\""); raw(rel); raw("\"") }
        raw(">"); raw(before); text(link.label); raw(after); raw("</a>")
    }

    private mutating func card(_ card: TaskCardView) {
        raw("<li class=\"card\"><div class=\"task-head\"><h2>"); text(card.title); raw("</h2>")
        if let badge = card.badge { raw("<span class=\"badge "); text(badge.stateClass); raw("\">"); text(badge.label); raw("</span>") }
        raw("</div>\n<p class=\"time\">"); text(card.time); raw("</p>\n")
        if let instructions = card.instructions { raw("<p>"); text(instructions); raw("</p>\n") }
        if let link = card.link { buttonLink(link, classes: "button primary") }
        if let completed = card.completed { raw("<p class=\"completed\">✓ "); text(completed); raw("</p>") }
        if let undo = card.undo { buttonLink(undo, classes: "button small") }
        if let toggle = card.toggle { formButton(toggle) }
        if let grid = card.grid { controls(grid, listClass: "grid") }
        if let checklist = card.checklist { controls(checklist, listClass: "checklist") }
        if let log = card.log {
            if let button = log.button { formButton(button) }
            if let empty = log.empty { raw("<p class=\"hint\">"); text(empty); raw("</p>") }
            raw("<ul class=\"log\">")
            for entry in log.entries {
                raw("<li><span>"); text(entry.time); raw("</span>")
                if let delete = entry.delete { formButton(delete) }
                raw("</li>")
            }
            raw("</ul>")
        }
        if let value = card.value { self.value(value) }
        raw("\n</li>\n")
    }

    private mutating func buttonLink(_ link: CardLinkView, classes: StaticString) {
        raw("<a class=\""); raw(classes); raw("\" href=\""); text(link.href); raw("\">"); text(link.label)
        raw("<span class=\"vh\"> "); text(link.context); raw("</span></a>")
    }

    private mutating func controls(_ list: EventListView, listClass: StaticString) {
        raw("<ul class=\""); raw(listClass); raw("\">")
        for event in list.events {
            raw("<li>")
            if let button = event.button {
                formButton(button)
            } else {
                raw(event.done ? "<span class=\"slot on\">" : "<span class=\"slot\">"); text(event.label); raw("</span>")
            }
            raw("</li>")
        }
        raw("</ul>")
    }

    private mutating func form(action: String, fields: [HiddenFieldView], classes: StaticString? = nil) {
        raw("<form method=\"post\" action=\""); text(action); raw("\"")
        if let classes { raw(" class=\""); raw(classes); raw("\"") }
        raw(">")
        if let csrf { raw("<input type=\"hidden\" name=\""); text(csrf.name); raw("\" value=\""); text(csrf.token); raw("\">") }
        for field in fields {
            raw("<input type=\"hidden\" name=\""); text(field.name); raw("\" value=\""); text(field.value); raw("\">")
        }
    }

    private mutating func formButton(_ button: FormButtonView) {
        form(action: button.action, fields: button.fields)
        raw("<button type=\"submit\" class=\""); text(button.classes); raw("\"")
        if let pressed = button.pressed { raw(" aria-pressed=\""); text(pressed); raw("\"") }
        raw(">"); text(button.label); raw("<span class=\"vh\"> "); text(button.context); raw("</span></button></form>")
    }

    private mutating func value(_ value: ValueView) {
        raw("<p class=\"amount\">"); text(value.text); raw("</p>")
        if let percent = value.percent { raw("<div class=\"bar\"><span style=\"width:"); number(percent); raw("%\"></span></div>") }
        if let entry = value.entry {
            raw("\n")
            form(action: entry.action, fields: entry.fields, classes: "entry")
            raw("<label for=\""); text(entry.id); raw("\">"); text(entry.label); raw("<span class=\"vh\"> "); text(entry.context)
            raw("</span></label><span class=\"unit\"><input id=\""); text(entry.id)
            raw("\" name=\"value\" type=\"number\" inputmode=\"decimal\" step=\"any\" min=\""); text(entry.minimum)
            raw("\" max=\""); text(entry.maximum); raw("\" required>")
            if let units = entry.units { raw("<span>"); text(units); raw("</span>") }
            raw("</span><button type=\"submit\">"); text(entry.button); raw("</button></form>")
        }
        if let clear = value.clear { raw("\n"); formButton(clear) }
    }

    private mutating func content(_ card: ContentCardView) {
        raw("<section class=\"card content"); raw(card.featured ? " featured" : ""); raw("\" aria-labelledby=\""); text(card.id); raw("\">")
        if let image = card.imageURL { raw("<img src=\""); text(image); raw("\" alt=\"\">") }
        raw("\n<h2 id=\""); text(card.id); raw("\">"); text(card.title); raw("</h2>")
        for paragraph in card.paragraphs { raw("<p>"); text(paragraph); raw("</p>") }
        raw("\n")
        if let link = card.link { buttonLink(link, classes: "button") }
        raw("\n")
        for link in card.links {
            raw("<a class=\"button\" href=\""); text(link.href); raw("\">"); text(link.label)
            raw("<span class=\"vh\"> ("); text(link.context); raw(")</span></a> ")
        }
        raw("</section>\n")
    }
}
