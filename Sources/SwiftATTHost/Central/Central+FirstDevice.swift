import SwiftATTAdvertising

extension Central {
    /// Scans until a device matches `filter` and `match`, and returns it; nil when
    /// `timeout` passes first. Scanning stops either way.
    ///
    /// What a command or a test that looks for one device wants: `scan` never ends by
    /// itself, so each of them would otherwise race it against a timer of its own.
    public func firstDevice(
        _ filter: ScanFilter = ScanFilter(), active: Bool = true, within timeout: Duration,
        where match: @escaping @Sendable (DiscoveredDevice) -> Bool = { _ in true }
    ) async throws -> DiscoveredDevice? {
        let scan = self.scan(filter, active: active)
        return try await withThrowingTaskGroup(of: DiscoveredDevice?.self) { group in
            group.addTask {
                for try await device in scan where match(device) { return device }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
