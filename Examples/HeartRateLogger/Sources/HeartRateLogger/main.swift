#if canImport(Glibc)
import Glibc
#endif
import SwiftATT
import SwiftATTLoopback

/// heart-rate-logger: swift-att from another package.
///
///     heart-rate-logger log --transport SPEC [--count N]   log a monitor's readings
///     heart-rate-logger monitor --transport SPEC           be a heart-rate monitor
///     heart-rate-logger demo [--count N]                   both, over in-memory controllers
let usage = """
    usage: heart-rate-logger log --transport SPEC [--count N]
           heart-rate-logger monitor --transport SPEC [--seconds S]
           heart-rate-logger demo [--count N]
    SPEC is hci0, serial:/dev/ttyUSB0 or tcp:HOST:PORT (a controller reached as H4 over TCP).
    """

/// Prints a line and flushes it, also into a pipe or a file: a log is read as it is
/// written.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    say("heart-rate-logger: \(message)")
    exit(2)
}

/// The positive number `name` gives, if it is there.
func number(_ name: String, in arguments: [String]) -> Int? {
    guard let text = option(name, in: arguments) else { return nil }
    guard let value = Int(text), value > 0 else { fail("\(name) needs a positive number, not '\(text)'") }
    return value
}

let arguments = Array(CommandLine.arguments.dropFirst())
let count = number("--count", in: arguments) ?? 5

do {
    switch arguments.first {
    case "log":
        guard let spec = option("--transport", in: arguments) else { fail("log needs --transport\n\(usage)") }
        _ = try await HeartRateLog.run(transport: try TransportSpecification(parsing: spec), count: count)
    case "monitor":
        guard let spec = option("--transport", in: arguments) else { fail("monitor needs --transport\n\(usage)") }
        let seconds = number("--seconds", in: arguments)
        let monitor = try await HeartRateMonitor.start(transport: try TransportSpecification(parsing: spec))
        say("advertising as \"\(HeartRateMonitor.name)\" at \(monitor.peripheral.info.randomAddress)")
        let serving = Task { await monitor.serve(every: .seconds(1)) }
        if let seconds {
            try await Task.sleep(for: .seconds(seconds))
        } else {
            await serving.value
        }
        serving.cancel()
        await monitor.close()
    case "demo":
        // Two controllers on one in-memory radio: a monitor on one, the logger on the other.
        let link = LoopbackLink()
        let monitor = try await HeartRateMonitor.start(transport: link.addController().specification)
        let serving = Task { await monitor.serve(every: .milliseconds(20)) }
        let rates = try await HeartRateLog.run(transport: link.addController().specification, count: count)
        serving.cancel()
        await monitor.close()
        say("logged \(rates.count) readings from \(rates.min() ?? 0) to \(rates.max() ?? 0) bpm")
    default:
        say(usage)
        exit(arguments.isEmpty ? 0 : 2)
    }
} catch {
    say("heart-rate-logger: \(error)")
    exit(1)
}
