#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Standard output for results, standard error for one-line diagnostics.
enum Output {
    static func print(_ text: String) {
        if let editor = LineEditor.active.withLock({ $0 }) { return editor.write(text + "\n") }
        Swift.print(text)
    }

    /// `line` (UTF-8, no newline) and a newline on standard output, through the same
    /// buffer as `print`: an event line built as bytes goes out without becoming a
    /// `String` and without `print`'s per-argument stream writes (some 1,900
    /// instructions a line, a notification's worth of the host's work).
    static func printLine(_ line: UnsafeRawBufferPointer) {
        if let editor = LineEditor.active.withLock({ $0 }) {
            return editor.write(String(decoding: line, as: UTF8.self) + "\n")
        }
        StandardOutput.writeLine(line)
    }

    /// `swift-att: error: <message>` on standard error, as one line. A message of ASCII
    /// with no line break in it, nearly all, is written as it is: splitting it by
    /// characters cost more than decoding the line it is about (`decode att -` reports
    /// every bad line of its input).
    static func error(_ message: String) {
        let isOneLine = message.utf8.allSatisfy { $0 < 0x80 && !(0x0A...0x0D).contains($0) }
        let flat = isOneLine ? message : message.split(whereSeparator: \.isNewline).joined(separator: " ")
        writeError("swift-att: error: \(flat)\n")
    }

    /// `swift-att: warning: <message>` on standard error: something went otherwise than
    /// asked, and the command goes on.
    static func warning(_ message: String) {
        writeError("swift-att: warning: \(message)\n")
    }

    /// `swift-att: <message>` on standard error: what the command is doing, for people.
    static func progress(_ message: String) {
        writeError("swift-att: \(message)\n")
    }

    /// A progress line redrawn in place on a terminal (`\r`); nothing when standard error
    /// is a file or pipe, so logs are not flooded. The message is made only when it is
    /// shown, and whether standard error is a terminal is asked once: `central transfer`
    /// calls this for every chunk received.
    static func progressInPlace(_ message: @autoclosure () -> String) {
        guard standardErrorIsTerminal, LineEditor.active.withLock({ $0 }) == nil else { return }
        writeError("\rswift-att: \(message())\u{1B}[K")
    }

    private static let standardErrorIsTerminal = isatty(STDERR_FILENO) == 1

    /// Writes `text` to standard error — above the prompt while the shell's line editor
    /// owns the terminal.
    static func writeError(_ text: String) {
        if let editor = LineEditor.active.withLock({ $0 }) { return editor.write(text) }
        flush()  // keep results printed so far ahead of the diagnostic
        writeAll(text, to: STDERR_FILENO)
    }

    /// All of `text` to `descriptor`, however many writes it takes (EINTR retried); stops
    /// quietly when the descriptor is gone.
    static func writeAll(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Pushes buffered results out, so a pipe reader sees each PDU as it is decoded.
    static func flush() {
        fflush(nil)
    }

    /// Every line of standard input, numbered from 1, newline removed.
    static func standardInputLines() -> [(number: Int, text: String)] {
        var lines: [(Int, String)] = []
        forEachStandardInputLine { lines.append(($0, $1)) }
        return lines
    }

    /// Calls `body` with each line of standard input as it arrives, numbered from 1.
    static func forEachStandardInputLine(_ body: (_ number: Int, _ text: String) -> Void) {
        var number = 0
        while let line = readLine(strippingNewline: true) {
            number += 1
            body(number, line)
        }
    }
}
