/// What one receiver saw of one stream: every value in order from 1, and every way it
/// was not. The sender counts what it sent; the script compares that with `last`.
struct SequenceCheck: Sendable {
    var received = 0
    var first: UInt32?
    var last: UInt32?
    /// Values skipped (a jump forward by more than one).
    var lost = 0
    /// A value equal to the previous one.
    var duplicated = 0
    /// A value below the previous one.
    var reordered = 0

    mutating func take(_ sequence: UInt32) {
        received += 1
        defer { last = max(last ?? sequence, sequence) }
        guard let previous = last else {
            first = sequence
            return
        }
        if sequence == previous { duplicated += 1 }
        else if sequence < previous { reordered += 1 }
        else if sequence > previous + 1 { lost += Int(sequence - previous - 1) }
    }

    /// Values arrived, starting at 1 (the stream began after the subscription), none
    /// lost, repeated or out of order.
    var isClean: Bool { received > 0 && first == 1 && lost == 0 && duplicated == 0 && reordered == 0 }

    var json: String {
        "{\"received\":\(received),\"first\":\(first.map(String.init) ?? "null"),\"last\":\(last.map(String.init) ?? "null"),"
            + "\"lost\":\(lost),\"duplicated\":\(duplicated),\"reordered\":\(reordered)}"
    }

    /// The sum of several streams' counts (`first` and `last` mean nothing there).
    static func total(_ checks: some Sequence<SequenceCheck>) -> SequenceCheck {
        checks.reduce(into: SequenceCheck()) { sum, check in
            sum.received += check.received
            sum.lost += check.lost
            sum.duplicated += check.duplicated
            sum.reordered += check.reordered
        }
    }
}
