/// JSON text that ``FHIRJSON`` could not parse, with where the problem is.
public struct FHIRJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, such as `expected ',' or '}' after an object member`.
    public var message: String
    /// The byte offset (from 0) into the UTF-8 text.
    public var offset: Int
    /// The line (from 1).
    public var line: Int
    /// The column (from 1, counted in bytes).
    public var column: Int

    /// Creates an error; see the properties for each part.
    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `invalid JSON at line L, column C (byte offset O): message`.
    public var description: String {
        "invalid JSON at line \(line), column \(column) (byte offset \(offset)): \(message)"
    }
}
