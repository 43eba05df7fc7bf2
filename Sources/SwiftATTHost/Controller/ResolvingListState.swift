import SwiftATTCore

/// What the host knows of the controller's resolving list, between radio starts
/// (`Controller.prepareRadioStart`): nil in `Controller` when the host resolves.
struct ResolvingListState: Sendable {
    /// Entries the controller can hold.
    let capacity: Int
    /// The entries the controller holds, in the order added; nil when unknown (a
    /// programming that failed half-way), so the next one starts from Clear.
    var programmed: [ResolvingListEntry]? = []
    /// LE Set Address Resolution Enable is on.
    var resolutionEnabled = false
    /// A radio start is programming the list now: another one leaves it alone rather
    /// than interleave its commands.
    var isProgramming = false
    /// The controller left a command of the list unanswered: the host resolves from now
    /// on, rather than wait out a timeout at every radio start.
    var abandoned = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The entries to program for `wanted`: all of them, or the most recently bonded
    /// `capacity` when there are more (the host resolves the others).
    func fitting(_ wanted: [ResolvingListEntry]) -> [ResolvingListEntry] {
        Array(wanted.suffix(capacity))
    }

    /// Whether the controller needs programming for `wanted`. With nothing wanted and
    /// resolution off, whatever the list holds (after a reset: unknown) resolves nothing,
    /// so a host without bonds sends no list command at all.
    func needsProgramming(for wanted: [ResolvingListEntry]) -> Bool {
        if abandoned { return false }
        let target = fitting(wanted)
        if target.isEmpty { return resolutionEnabled }
        return programmed != target
    }
}
