import SwiftATTPDU

/// Where a range-scanning procedure (discovery, Read Using Characteristic UUID) is: the
/// next request starts at `next`, and every entry of an answer must lie at or after it
/// and inside the range. Each accepted entry moves `next` past itself, so every answer
/// makes progress and a server listing handles backwards, twice or out of range fails
/// the procedure instead of looping it. Core 5.4 Vol 3 Part G §4.4–§4.8.
struct GATTProcedureCursor: Sendable {
    let range: ClosedRange<UInt16>
    /// An `Int`: an entry ending at 0xFFFF leaves 0x10000, past every handle.
    private(set) var next: Int

    init(range: ClosedRange<UInt16>) {
        self.range = range
        next = Int(range.lowerBound)
    }

    /// The next request's starting handle.
    var start: UInt16 { UInt16(clamping: next) }

    /// Nothing is left to ask for.
    var isExhausted: Bool { next > Int(range.upperBound) }

    /// Accepts an entry at `handle` whose group (if any) ends at `end`, or says why not.
    mutating func accept(_ opcode: ATTOpcode, handle: UInt16, through end: UInt16? = nil) -> GATTClientError? {
        guard Int(handle) >= next else {
            return .malformedResponse(.handleOutOfOrder(opcode, handle: handle, expectedAtLeast: start))
        }
        guard range.contains(handle) else {
            return .malformedResponse(.handleOutsideRange(opcode, handle: handle, range: range))
        }
        let last = end ?? handle
        guard last >= handle else { return .malformedResponse(.invalidGroup(opcode, start: handle, end: last)) }
        next = Int(last) + 1
        return nil
    }
}
