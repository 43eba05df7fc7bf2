/// The streams a loop feeds one kind of event to (`Controller.events()`,
/// `Peripheral.events()`, `Controller.recoveries()`): each listener by the id it was
/// given, so that a stream the consumer ends can be taken out. Loop-confined, like the
/// `HostStack` floor that holds it; `HostLoop.feed` is the one way in.
struct ListenerSet<Element: Sendable> {
    private var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
    private var next = 0

    mutating func add(_ continuation: AsyncStream<Element>.Continuation) -> Int {
        defer { next += 1 }
        continuations[next] = continuation
        return next
    }

    mutating func remove(_ id: Int) {
        continuations[id] = nil
    }

    /// No stream listens: an event may be read in place, since none will keep it.
    var isEmpty: Bool { continuations.isEmpty }

    func yield(_ element: Element) {
        for continuation in continuations.values { continuation.yield(element) }
    }

    /// The host stopped: every stream ends.
    mutating func finishAll() {
        for continuation in continuations.values { continuation.finish() }
        continuations.removeAll()
    }
}

extension HostLoop {
    /// Makes `continuation`'s stream one of the stack's `listeners` from the next loop
    /// turn until either side ends it: the consumer (then it leaves the set) or the host
    /// (then it finishes; at once if the host has already stopped). `onEnd` runs when
    /// the consumer ends it or the host refused it.
    func feed<Element: Sendable>(
        _ continuation: AsyncStream<Element>.Continuation,
        from listeners: ReferenceWritableKeyPath<HostStack, ListenerSet<Element>> & Sendable,
        onEnd: @escaping @Sendable () -> Void = {}
    ) {
        submit({ [self] stack in
            let id = stack[keyPath: listeners].add(continuation)
            continuation.onTermination = { [self] _ in
                onEnd()
                submit({ stack in stack[keyPath: listeners].remove(id) }, refuse: { _ in })
            }
        }, refuse: { _ in
            onEnd()
            continuation.finish()
        })
    }
}
