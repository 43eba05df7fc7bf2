import SwiftATTGATT

extension Peer {
    /// Runs `operation` on every element at once (each a procedure placed on a free
    /// bearer, or queued for one) and returns the outputs in the elements' order. The
    /// first failure, in that order, is thrown, and the operations still running are
    /// cancelled so that a failed discovery or read does not keep the bearers busy.
    func concurrently<Element: Sendable, Output: Sendable>(
        _ elements: [Element],
        _ operation: @escaping @Sendable (Element) async throws(GATTClientError) -> Output
    ) async throws(GATTClientError) -> [Output] {
        if elements.count == 1 { return [try await operation(elements[0])] }
        let results = await withTaskGroup(of: (Int, Result<Output, GATTClientError>).self) { group in
            for (index, element) in elements.enumerated() {
                group.addTask {
                    do throws(GATTClientError) { return (index, .success(try await operation(element))) } catch { return (index, .failure(error)) }
                }
            }
            var results = [Result<Output, GATTClientError>?](repeating: nil, count: elements.count)
            for await (index, result) in group {
                results[index] = result
                if case .failure = result { group.cancelAll() }
            }
            return results
        }
        var outputs: [Output] = []
        outputs.reserveCapacity(elements.count)
        // A procedure cancelled because another failed reports `.cancelled`: the failure
        // that caused it is the one to throw.
        if let failure = results.lazy.compactMap({ result -> GATTClientError? in
            if case let .failure(error)? = result, error != .cancelled { return error }
            return nil
        }).first {
            throw failure
        }
        for result in results {
            switch result {
            case let .success(output)?: outputs.append(output)
            case let .failure(error)?: throw error
            case nil: throw .cancelled
            }
        }
        return outputs
    }
}
