import Synchronization

/// What a waiting central flow hears (`centralEvents`), from the tasks that merge its
/// sources into it, taken by the flow a batch at a time.
///
/// Made for this one element type rather than an `AsyncStream<CentralEvent>`: the
/// standard library's stream is generic code compiled once for every element type, which
/// looked up the metadata of its buffer, its optionals and its continuation on every
/// yield and every `next()` — some 9,000 instructions a notification in `central
/// transfer`, more than the host spent receiving it. Here a yield appends under a lock
/// and wakes the flow only when it waits; the flow takes whatever has arrived at once.
final class CentralEventQueue: AsyncSequence, Sendable {
    private struct State {
        var buffer: [CentralEvent] = []
        var waiter: UnsafeContinuation<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())
    private let sources = Mutex<[Task<Void, Never>]>([])

    /// Starts a task that feeds the queue; `stop()` cancels it.
    func feed(from source: sending @escaping (CentralEventQueue) async -> Void) {
        let task = Task.onCommandLoop { [self] in await source(self) }
        sources.withLock { $0.append(task) }
    }

    func yield(_ event: CentralEvent) {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.buffer.append(event)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Cancels the tasks that feed the queue: the flow is done with it. (They hold it,
    /// so it is not released before they end.)
    func stop() {
        for task in sources.withLock({ $0 }) { task.cancel() }
    }

    /// Waits until something has arrived and swaps it into `batch` (which must be
    /// empty); false, with nothing taken, once the waiting task is cancelled.
    private func take(into batch: inout [CentralEvent]) async -> Bool {
        while true {
            let taken = state.withLock { state -> Bool? in
                if !state.buffer.isEmpty {
                    swap(&state.buffer, &batch)
                    return true
                }
                return state.cancelled ? false : nil
            }
            if let taken { return taken }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.buffer.isEmpty || state.cancelled { return true }
                        state.waiter = waiter
                        return false
                    }
                    if ready { waiter.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
                    state.cancelled = true
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let queue: CentralEventQueue
        var batch: [CentralEvent] = []
        var next = 0

        /// The next event; nil once the waiting task is cancelled.
        mutating func next() async -> CentralEvent? {
            if next == batch.count {
                batch.removeAll(keepingCapacity: true)
                next = 0
                guard await queue.take(into: &batch) else { return nil }
            }
            defer { next += 1 }
            return batch[next]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: self) }
}
