/// A first-in, first-out queue whose elements move in and move out: none is copied on
/// the way, so an element holding references (an `updateValue` value, its
/// characteristic, its gate) costs no retain or release between the thread that queues
/// it and the loop that runs it. An `Array` would copy each element out of its storage
/// on the way back (and release it there again), once per value of a stream.
///
/// Not thread-safe: the runner keeps one inside its lock and one on its thread, and
/// exchanges them.
struct MoveQueue<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Hands every element to `body` in order, moving each out, with whether it is the
    /// last; the queue is left empty with its capacity. `body` must not touch this queue.
    mutating func drain(_ body: (consuming Element, _ isLast: Bool) -> Void) {
        let n = count
        count = 0
        for i in 0..<n { body((base + i).move(), i == n - 1) }
    }

    /// Moves the elements `shouldRemove` picks to `removed`, in order; the others stay,
    /// in order.
    mutating func removeAll(where shouldRemove: (borrowing Element) -> Bool, _ removed: (consuming Element) -> Void) {
        let n = count
        count = 0
        for i in 0..<n {
            let element = (base + i).move()
            if shouldRemove(element) {
                removed(element)
            } else {
                (base + count).initialize(to: element)
                count += 1
            }
        }
    }

    /// Trades contents with `other` (two pointers, no element touched).
    mutating func exchange(with other: inout MoveQueue) {
        swap(&base, &other.base)
        swap(&capacity, &other.capacity)
        swap(&count, &other.count)
    }
}

/// The queue owns its elements outright; it is as sendable as they are.
extension MoveQueue: @unchecked Sendable where Element: Sendable {}
