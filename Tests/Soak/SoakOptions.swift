import SwiftATTTransport

/// The command line of `swift-att-soak` (main.swift prints the usage).
struct SoakOptions: Sendable {
    var transport: TransportSpecification
    var capturePath: String?
    /// How long values stream once every link is up.
    var duration: Duration
    /// Memory growth is judged from this long after streaming starts (ResourceWatch).
    var warmUp: Duration
    /// The most resident memory, and malloc's bytes in use, may grow from warm-up to
    /// the end (ResourceWatch.Figures says why two).
    var rssGrowthLimitKiB: Int
    var heapGrowthLimitKiB: Int
    /// Links: centrals the peripheral waits for, or peripherals the central connects to.
    var links: Int
    /// The peripheral's pause between notifications.
    var interval: Duration

    init(_ arguments: [String]) throws {
        func option(_ name: String) -> String? {
            guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
            return arguments[index + 1]
        }
        func number(_ name: String, _ fallback: Double) throws -> Double {
            guard let text = option(name) else { return fallback }
            guard let value = Double(text), value >= 0 else { throw SoakError(description: "\(name) wants a number, not \(text)") }
            return value
        }
        transport = try TransportSpecification(parsing: option("--transport") ?? "hci0")
        capturePath = option("--btsnoop")
        let seconds = try option("--minutes") != nil ? number("--minutes", 1) * 60 : number("--seconds", 60)
        duration = .milliseconds(Int64(seconds * 1000))
        // A fifth of the run, at most 30 s: long enough for buffers to reach their working size.
        warmUp = .milliseconds(Int64(try number("--warm-up-seconds", min(30, seconds / 5)) * 1000))
        rssGrowthLimitKiB = Int(try number("--rss-growth-kib", 4096))
        heapGrowthLimitKiB = Int(try number("--heap-growth-kib", 1024))
        links = Int(try number("--links", 8))
        interval = .microseconds(Int64(try number("--interval-ms", 2) * 1000))
    }
}
