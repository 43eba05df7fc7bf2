/// A first-in, first-out queue whose removal from the front is O(1): a start index
/// moves instead of every element behind it, and the storage is compacted once the
/// taken part outweighs the rest, so a queue that never quite empties (a steady stream
/// of packets or indications) does not keep growing its array.
///
/// For the host's queues (ACL packets waiting for controller buffers, ATT requests and
/// indications waiting their turn). Inlinable, so that the layers using it get it
/// specialized for their element type rather than running it generically.
///
/// Slots are optional so that `popFirst` moves the element out (`take()`), leaving
/// nil: copying it out would retain what it holds, and clearing the storage later
/// release it again — a retain and a release per element, on a queue every ACL packet
/// sent goes through.
@frozen
public struct FIFOQueue<Element> {
    @usableFromInline var elements: [Element?] = []
    @usableFromInline var start = 0

    /// An empty queue.
    @inlinable public init() {}

    /// The number of elements waiting.
    @inlinable public var count: Int { elements.count - start }
    /// Whether nothing is waiting.
    @inlinable public var isEmpty: Bool { start == elements.count }

    /// Adds `element` at the back.
    @inlinable public mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// Adds `newElements` at the back, in order.
    @inlinable public mutating func append(contentsOf newElements: some Sequence<Element>) {
        elements.append(contentsOf: newElements.lazy.map { Optional.some($0) })
    }

    /// Removes and returns the front element, or `nil` when the queue is empty; O(1), the
    /// storage compacted now and then.
    @inlinable public mutating func popFirst() -> Element? {
        guard start < elements.count else { return nil }
        let first = elements[start].take()
        start += 1
        if start == elements.count {
            elements.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 32, start * 2 >= elements.count {
            elements.removeFirst(start)
            start = 0
        }
        return first
    }

    /// Empties the queue, returning what it held in order.
    @inlinable public mutating func removeAll() -> [Element] {
        let remaining = elements[start...].map { $0! }
        elements = []
        start = 0
        return remaining
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
