extension String {
    /// The text followed by spaces up to `width` characters: a column of a table.
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The digits preceded by zeros up to `width` characters: hex at a fixed width, as in
    /// `0x000d`.
    func zeroPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
