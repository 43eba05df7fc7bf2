extension String {
    /// `1 chunk`, `2 chunks`, `0 entries`: a count with its noun in the number the count
    /// takes. `plural` is for the nouns that do not just add an s (`entry`, `entries`).
    init(count: Int, _ singular: String, plural: String? = nil) {
        self = "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}
