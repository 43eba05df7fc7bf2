/// The human-readable layout of a decoded PDU: a title line, labelled fields whose
/// values line up, then the entries of a list in aligned columns.
///
///     Read By Group Type Response (0x11)
///       Length:               6
///       Attribute data list:  2 entries
///         0x0001-0x0005  0x1800 Generic Access
///         0x0006-0x000d  0x1801 Generic Attribute
struct FieldsText {
    private let title: String
    private var fields: [(label: String, lines: [String])] = []
    private var entries: [(columns: [String], more: [String])] = []

    init(title: String) { self.title = title }

    /// A field whose value may run over several lines (wrapped bytes, a hint).
    mutating func field(_ label: String, _ lines: [String]) {
        fields.append((label, lines))
    }

    mutating func field(_ label: String, _ value: String) {
        field(label, [value])
    }

    /// One row of the list; `more` lines continue under its last column.
    mutating func entry(_ columns: [String], more: [String] = []) {
        entries.append((columns, more))
    }

    var rendered: String {
        var lines = [title]
        let labelWidth = (fields.map(\.label.count).max() ?? 0) + 3  // label, colon, two spaces
        for (label, values) in fields {
            let head = "  " + "\(label):".padded(to: labelWidth)
            for (i, value) in values.enumerated() {
                lines.append((i == 0 ? head : String(repeating: " ", count: head.count)) + value)
            }
        }
        var widths: [Int] = []
        for (columns, _) in entries {
            for (i, c) in columns.dropLast().enumerated() {
                if i == widths.count { widths.append(0) }
                widths[i] = max(widths[i], c.count)
            }
        }
        for (columns, more) in entries {
            var row = "    "
            for (i, c) in columns.enumerated() {
                row += i == columns.count - 1 ? c : c.padded(to: widths[i] + 2)
            }
            lines.append(row)
            let indent = 4 + columns.dropLast().indices.reduce(0) { $0 + widths[$1] + 2 }
            for m in more { lines.append(String(repeating: " ", count: indent) + m) }
        }
        return lines.map { $0.trailingSpacesRemoved }.joined(separator: "\n")
    }
}

extension String {
    var trailingSpacesRemoved: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
