extension String {
    /// The string without leading and trailing spaces, tabs, carriage returns and newlines
    /// (a CR LF pair is one character, trimmed too).
    ///
    /// Most lines have none: when neither the first nor the last byte is one of them, no
    /// character at either end can be (each is made of those bytes alone), and
    /// two byte checks stand for two character searches (`decode att -` trims each line).
    var trimmingWhitespace: Substring {
        let isSpaceByte = { (b: UInt8) in b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
        if let first = utf8.first, let last = utf8.last, !isSpaceByte(first), !isSpaceByte(last) { return self[...] }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[start...end]
    }
}
