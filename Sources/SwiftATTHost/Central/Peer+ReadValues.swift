import SwiftATTGATT
import SwiftATTPDU

extension Peer {
    /// Reads several characteristics' values, each whole, in the order given, in as few
    /// round trips as the server allows: Read Multiple Variable Length requests (Core 5.4
    /// Vol 3 Part G §4.8.5, a 5.2 server's) carry as many handles as ATT_MTU lets one
    /// request name, and what a response cuts is completed with Read Blob. A server
    /// without that request (Request Not Supported) gets one read per value instead, run
    /// at once over the link's bearers (several with Enhanced ATT).
    public func read(_ characteristics: [GATTClient.Characteristic]) async throws(GATTClientError) -> [[UInt8]] {
        let handles = characteristics.map(\.valueHandle)
        guard handles.count > 1 else { return try await handles.asyncMap { handle throws(GATTClientError) in try await read(handle: handle) } }
        // The request may go out on any bearer: sized for the smallest ATT_MTU.
        let smallest = min(await mtu, await enhancedBearerMTUs.min() ?? .max)
        let perRequest = GATTClient.ReadMultipleCharacteristicValues.maximumHandles(mtu: smallest)
        var values: [[UInt8]] = []
        var start = 0
        while start < handles.count {
            let chunk = Array(handles[start..<min(start + perRequest, handles.count)])
            do {
                values += try await readMultipleVariable(handles: chunk)
            } catch .attributeError(.requestNotSupported, _, _) {
                return try await readEach(handles)
            }
            start += chunk.count
        }
        return values
    }

    /// One Read (Long) per handle, all at once, in the order given.
    private func readEach(_ handles: [UInt16]) async throws(GATTClientError) -> [[UInt8]] {
        try await concurrently(handles) { handle throws(GATTClientError) in try await self.read(handle: handle) }
    }
}

extension Array {
    /// `map` with an async, typed-throwing transform, one element after another.
    func asyncMap<T, Failure: Error>(_ transform: (Element) async throws(Failure) -> T) async throws(Failure) -> [T] {
        var out: [T] = []
        out.reserveCapacity(count)
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
