import SwiftATTCore

/// A first-in, first-out queue with a bound, for the requests and indications that wait
/// behind the one the bearer has outstanding.
struct ATTBearerQueue<Element: Sendable>: Sendable {
    private var queue = FIFOQueue<Element>()
    let limit: Int

    init(limit: Int) { self.limit = limit }

    var count: Int { queue.count }
    var isEmpty: Bool { queue.isEmpty }
    var isFull: Bool { count >= limit }

    mutating func append(_ element: Element) { queue.append(element) }

    mutating func popFirst() -> Element? { queue.popFirst() }

    /// Empties the queue, returning what it held in order.
    mutating func removeAll() -> [Element] { queue.removeAll() }
}
