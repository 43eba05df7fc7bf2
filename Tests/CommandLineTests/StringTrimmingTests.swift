import Testing
@testable import swift_att

/// The trimming every line of `decode att -` and the shell's input goes through.
struct StringTrimmingTests {
    @Test(arguments: [
        ("0a1700", "0a1700"), (" 0a 17 00\t", "0a 17 00"), ("\t\r 1b \r", "1b"), ("", ""), (" \t\r\n", ""),
        ("é", "é"), (" é ", "é"), ("x\r\n", "x"),
        // A space with a combining mark is not a space: it stays, at either end.
        ("a \u{301}", "a \u{301}"), (" \u{301}a", " \u{301}a"), ("\u{301}a", "\u{301}a"),
    ])
    func trimsSpacesTabsAndLineEndsAtBothEnds(_ text: String, _ trimmed: String) {
        #expect(text.trimmingWhitespace == trimmed[...])
    }
}
