/// A plain-text table with right-aligned numeric columns.
struct Table {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: [String]) { self.headers = headers }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { c in all.map { $0[c].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return c == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(headers), rule] + rows.map(line)).joined(separator: "\n")
    }
}

func format(_ value: Double, decimals: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var s = String(rounded)
    if decimals == 0, s.hasSuffix(".0") { s.removeLast(2) }
    return s
}

func formatRate(_ perSecond: Double) -> String {
    if perSecond >= 1e6 { return format(perSecond / 1e6) + " M" }
    if perSecond >= 1e3 { return format(perSecond / 1e3) + " k" }
    return format(perSecond, decimals: 0)
}
