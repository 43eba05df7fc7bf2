import Synchronization

/// States for ThreadSanitizer an order that a `Mutex` already makes: what one thread put
/// down under the lock (`release()`, before it unlocks) comes before what another picks
/// up under it (`acquire()`, once it has locked).
///
/// TSan does not see a `Mutex` that was contended: the slow path (a futex wait, the lock
/// handed over) runs in the Synchronization library, which is not instrumented
/// (Tests/sanitizers/tsan.supp). Work handed to a loop while both threads wanted the
/// runner's lock then looks unordered to it, and it reports the loop's first touch of
/// what the work carries (a `Controller.send` task's continuation, read as the loop
/// resumes it) against the writes that made it. In a build for TSan, which
/// `Tests/sanitize.sh` compiles with `-D SWIFT_ATT_THREAD_SANITIZER`, an atomic that TSan
/// does see carries the order; in every other build this is empty and its calls compile
/// to nothing.
struct HandOffOrder: ~Copyable, Sendable {
#if SWIFT_ATT_THREAD_SANITIZER
    private let order = Atomic<Int>(0)
#endif

    init() {}

    /// Under the lock, after the work is put down.
    @inline(__always)
    func release() {
#if SWIFT_ATT_THREAD_SANITIZER
        order.wrappingAdd(1, ordering: .releasing)
#endif
    }

    /// Under the lock, after the work is picked up.
    @inline(__always)
    func acquire() {
#if SWIFT_ATT_THREAD_SANITIZER
        _ = order.load(ordering: .acquiring)
#endif
    }
}
