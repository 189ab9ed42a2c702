import Mustache

/// Loads the Mustache templates shipped under `Resources/templates` into a library, once, for a renderer.
enum TemplateLibrary {
    /// The shared page frame (doctype, head with stylesheet and tint, header, `<main>`, script) that every page
    /// template extends, and the partials that go with it.
    static let layoutNames = ["layout", "csrf"]

    /// Registers ``HTMLContentEscaping`` under the name the templates' pragma uses, once, before any template parses.
    private static let registerContentType: Void = MustacheContentTypes.register(HTMLContentEscaping(), named: HTMLContentEscaping.name)

    /// A library with the templates `names` (file names without `.mustache`), registered under those names.
    /// - Throws: ``StepPageError/template(_:_:)`` when a file is missing or does not parse (a build mistake).
    static func load(_ names: [String]) throws(StepPageError) -> MustacheLibrary {
        _ = registerContentType
        var library = MustacheLibrary()
        for name in names {
            let path = "templates/\(name).mustache"
            guard let text = WebAssets.resourceText(path) else { throw .template(name, "the file \(path) is missing from the module bundle") }
            do {
                try library.register(text, named: name)
            } catch {
                throw .template(name, "\(error)")
            }
        }
        return library
    }
}
