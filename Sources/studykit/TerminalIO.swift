import Foundation

/// Where the terminal runner reads the participant's lines from.
protocol LineInput {
    /// The next line without its newline; nil at the end of input.
    mutating func readLine() -> String?
}

/// Where the terminal runner writes what the participant sees.
protocol TextOutput {
    func write(_ text: String)
}

extension TextOutput {
    func line(_ text: String = "") { write(text + "\n") }
}

/// Standard input, line by line (a terminal or a pipe).
struct StandardInput: LineInput {
    mutating func readLine() -> String? { Swift.readLine(strippingNewline: true) }
}

/// Standard output, written through at once so prompts appear before input is read.
struct StandardOutput: TextOutput {
    func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
}
