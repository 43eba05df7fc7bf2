/// A first-in, first-out queue with a bound, for the requests and indications that wait
/// behind the one the bearer has outstanding. Removal from the front is O(1): a start
/// index moves, and storage is reclaimed whenever the queue empties.
struct ATTBearerQueue<Element: Sendable>: Sendable {
    private var elements: [Element] = []
    private var start = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }

    var count: Int { elements.count - start }
    var isEmpty: Bool { start == elements.count }
    var isFull: Bool { count >= limit }

    mutating func append(_ element: Element) { elements.append(element) }

    mutating func popFirst() -> Element? {
        guard start < elements.count else { return nil }
        let element = elements[start]
        start += 1
        if start == elements.count {
            elements.removeAll(keepingCapacity: true)
            start = 0
        }
        return element
    }

    /// Empties the queue, returning what it held in order.
    mutating func removeAll() -> ArraySlice<Element> {
        let remaining = elements[start...]
        elements = []
        start = 0
        return remaining
    }
}
