// swift-att-soak: one side of the eight-link soak (Tests/soak/soak.sh runs both sides).
//
//   swift-att-soak peripheral --transport T --centrals 8 --seconds 60 [--interval-ms 2]
//   swift-att-soak central --transport T --count 8 --seconds 60
#if canImport(Glibc)
import Glibc
#endif
import Transport

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let transport = try TransportSpecification(parsing: option("--transport", in: arguments) ?? "hci0")
    let seconds = Double(option("--seconds", in: arguments) ?? "60") ?? 60
    let duration = Duration.milliseconds(Int64(seconds * 1000))
    switch arguments.first {
    case "peripheral":
        let centrals = Int(option("--centrals", in: arguments) ?? "8") ?? 8
        let interval = Duration.milliseconds(Int(option("--interval-ms", in: arguments) ?? "2") ?? 2)
        exit(try await SoakPeripheral.run(transport: transport, centrals: centrals, duration: duration, interval: interval))
    case "central":
        let count = Int(option("--count", in: arguments) ?? "8") ?? 8
        exit(try await SoakCentral.run(transport: transport, count: count, duration: duration))
    default:
        print("usage: swift-att-soak peripheral|central --transport T [--seconds S] [--centrals N | --count N]")
        exit(2)
    }
} catch {
    emit("{\"event\":\"error\",\"message\":\"\(error)\"}")
    exit(3)
}
