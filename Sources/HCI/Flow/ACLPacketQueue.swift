/// One connection's ACL packets waiting for controller buffers, first in first out.
/// Taking the first is O(1): a start index moves, and the array is compacted only once
/// the taken part outweighs the rest (an `Array.removeFirst` per packet would move every
/// packet behind it).
struct ACLPacketQueue: Sendable {
    private var elements: [ACLDataPacket] = []
    private var start = 0

    var count: Int { elements.count - start }
    var isEmpty: Bool { start == elements.count }

    mutating func append(contentsOf packets: [ACLDataPacket]) {
        elements.append(contentsOf: packets)
    }

    mutating func popFirst() -> ACLDataPacket? {
        guard start < elements.count else { return nil }
        let first = elements[start]
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
}
