/// A plain-text table with right-aligned numeric columns, shared by the benchmark
/// executables so their output reads alike.
public struct Table {
    public let headers: [String]
    public var rows: [[String]] = []

    public init(_ headers: [String]) { self.headers = headers }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public func render() -> String {
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

public func format(_ value: Double, decimals: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var s = String(rounded)
    if decimals == 0, s.hasSuffix(".0") { s.removeLast(2) }
    return s
}

public func formatRate(_ perSecond: Double) -> String {
    if perSecond >= 1e6 { return format(perSecond / 1e6) + " M" }
    if perSecond >= 1e3 { return format(perSecond / 1e3) + " k" }
    return format(perSecond, decimals: 0)
}
