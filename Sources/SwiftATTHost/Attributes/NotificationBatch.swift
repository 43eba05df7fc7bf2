/// Values a link received, their bytes back to back in one array: what the loop thread
/// stages (`NotificationStaging`), the channel holds (`NotificationChannel`) and the
/// consumer's iterator hands out (`GATTNotificationStream`), each value's own array made
/// there, on the consumer's thread.
///
/// Made on the loop thread, each value's array would be freed on the consumer's: a
/// thread on Swift's pool, freeing into the loop thread's malloc arena, whose lock the
/// loop takes for its next value. With eight consumers on the pool and 244-byte values
/// (too large for malloc's lock-free fast bins) the two sides woke each other through
/// that lock more often than through anything the host does, and a third of the CPU went
/// there (`swift-att-host-benchmarks --default-loop`: 667–714 k notifications per
/// CPU-second; the same binary with a tcache large enough to keep frees off the lock,
/// 1.0 M). Copied into the batch here, a value is allocated and freed by the thread that
/// consumes it, and the batch's two arrays keep their capacity from batch to batch.
@usableFromInline
struct NotificationBatch: Sendable {
    /// One value: its characteristic value handle, where its bytes end in `bytes` (it
    /// starts where the one before it ends), and whether it was indicated.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let handle: UInt16
        @usableFromInline let isIndication: Bool
        @usableFromInline let end: Int

        /// The same value with its bytes `offset` further along.
        func moved(by offset: Int) -> Entry {
            Entry(handle: handle, isIndication: isIndication, end: end + offset)
        }
    }

    @usableFromInline private(set) var bytes: [UInt8] = []
    @usableFromInline private(set) var entries: [Entry] = []

    @usableFromInline init() {}

    @inlinable var count: Int { entries.count }
    @inlinable var isEmpty: Bool { entries.isEmpty }

    /// Appends a value, copying its bytes.
    mutating func append(handle: UInt16, value: UnsafeBufferPointer<UInt8>, isIndication: Bool) {
        bytes.append(contentsOf: value)
        entries.append(Entry(handle: handle, isIndication: isIndication, end: bytes.count))
    }

    /// Appends every value of `other`, in order.
    mutating func append(contentsOf other: NotificationBatch) {
        let offset = bytes.count
        bytes.append(contentsOf: other.bytes)
        entries.reserveCapacity(entries.count + other.entries.count)
        for entry in other.entries { entries.append(entry.moved(by: offset)) }
    }

    /// Drops the oldest `n` values (all of them when there are fewer).
    mutating func removeFirst(_ n: Int) {
        guard n < entries.count else { return removeAll() }
        guard n > 0 else { return }
        let dropped = entries[n - 1].end
        bytes.removeFirst(dropped)
        entries.removeFirst(n)
        for index in entries.indices { entries[index] = entries[index].moved(by: -dropped) }
    }

    /// Empties the batch, keeping its arrays' capacity.
    @usableFromInline
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// The value at `index` as the application gets it: its bytes in an array of their
    /// own, made by the calling thread.
    @inlinable
    func notification(at index: Int) -> GATTNotification {
        let entry = entries[index]
        let start = index == 0 ? 0 : entries[index - 1].end
        let value = bytes.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[start..<entry.end])) }
        return GATTNotification(handle: entry.handle, value: value, isIndication: entry.isIndication)
    }
}
