import SwiftATTHost

/// Which threads the benchmark's hosts and tasks run on.
enum LoopLayout: String, CaseIterable {
    /// What an application gets when it does nothing about threads: every host on the
    /// process's loop (`HostEventLoop.shared`), the benchmark's tasks on Swift's global
    /// executor. (Before the shared loop, each host had a thread of its own: compare.py
    /// matches that binary's "own" rows with these.)
    case `default`
    /// Every host and task on one `HostEventLoop`: the shape of Bumble's benchmark, one
    /// process on one asyncio loop.
    case shared
    /// Each host on a `HostEventLoop` of its own, with the task that feeds it (the
    /// sender's `updateValue` loop) or drains it (a receiver's stream) preferring that
    /// loop: one host per thread, so each thread's CPU time is what one host cost.
    case perHost = "per-host"
    /// Two `HostEventLoop`s: the sending host on one, every receiving host on the other,
    /// each with its tasks. With more links than cores, a thread per host measures
    /// mostly threads waking each other; two threads on two cores measure the sending
    /// host on its own and the receiving hosts together.
    case split

    /// The sending host's loop and each receiving host's (nil: the host's own thread).
    func loops(receivers: Int) throws -> (sender: HostEventLoop?, receivers: [HostEventLoop?]) {
        switch self {
        case .default:
            return (nil, Array(repeating: nil, count: receivers))
        case .shared:
            let loop = try HostEventLoop(name: "bench-shared")
            return (loop, Array(repeating: loop, count: receivers))
        case .perHost:
            return (try HostEventLoop(name: "bench-sender"), try (0..<receivers).map { try HostEventLoop(name: "bench-recv-\($0)") })
        case .split:
            let receiving = try HostEventLoop(name: "bench-receivers")
            return (try HostEventLoop(name: "bench-sender"), Array(repeating: receiving, count: receivers))
        }
    }

    /// Whether the sending host's thread and the receiving hosts' threads run nothing
    /// else, so that their CPU times are the hosts' costs.
    var measuresEachSide: Bool { self == .perHost || self == .split }
}
