extension Array {
    /// Empties the array and keeps its capacity, as `removeAll(keepingCapacity: true)`
    /// does, destroying the elements one by one in code specialized for them. The
    /// standard library's version hands them to the runtime's `swift_arrayDestroy`,
    /// which destroys each element of a type that holds references through the type's
    /// value witnesses. For the loop's scratch arrays of packets and values, emptied
    /// every turn: 7,300 → 7,237 instructions per notification sent
    /// (`Benchmarks/instructions.py --notifications`); most of what is left there is
    /// the freeing of the buffers the elements held.
    @inline(__always)
    mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}
