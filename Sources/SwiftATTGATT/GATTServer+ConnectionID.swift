extension GATTServer {
    /// Which client a request came from: the host's name for a connection, typically
    /// its HCI connection handle.
    public struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
        /// The host's number for the connection, typically its HCI connection handle.
        public let rawValue: UInt16

        /// The connection numbered `rawValue`.
        public init(_ rawValue: UInt16) { self.rawValue = rawValue }
        public init(integerLiteral value: UInt16) { self.rawValue = value }

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

        public var description: String {
            let s = String(rawValue, radix: 16)
            return "connection 0x" + String(repeating: "0", count: max(0, 4 - s.count)) + s
        }
    }
}
