/// `dump --filter`: which records to print. `handle=0x0040` keeps one connection's
/// records; a layer name (`att`, `smp`, `hci-event`, …) keeps records carrying that
/// layer. Comma-separated terms: layers are alternatives, a handle narrows them.
/// Filtered-out records are still decoded (reassembly needs them) and keep their numbers.
struct DumpFilter {
    var layers: DumpLayers = []
    var handles: [UInt16] = []

    init(_ text: String?) throws(CommandError) {
        guard let text else { return }
        for term in text.split(separator: ",", omittingEmptySubsequences: false) {
            let term = String(term).trimmingWhitespace
            if term.hasPrefix("handle=") {
                let value = term.dropFirst("handle=".count)
                guard let handle = Self.number(value), handle <= 0x0EFF else {
                    throw .usage("dump: --filter handle=\(value): not a connection handle (0x0000-0x0EFF, e.g. handle=0x0040)")
                }
                handles.append(UInt16(handle))
            } else if let layer = DumpLayers.names.first(where: { $0.0 == term })?.1 {
                layers.insert(layer)
            } else {
                let names = DumpLayers.names.map(\.0).joined(separator: ", ")
                throw .usage("dump: --filter: unknown term '\(term)'; expected handle=N or one of \(names)")
            }
        }
    }

    var isEmpty: Bool { layers.isEmpty && handles.isEmpty }

    func matches(_ dumped: DumpedRecord) -> Bool {
        if !layers.isEmpty, dumped.layers.isDisjoint(with: layers) { return false }
        if !handles.isEmpty, !handles.contains(where: { DumpDecoder.concerns(dumped, handle: $0) }) { return false }
        return true
    }

    private static func number(_ text: Substring) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
        return Int(text)
    }
}
