// swift-att-soak: swift-att's side of the eight-link soak (Tests/soak/soak.sh runs both
// sides, with Bumble's hosts as the peers). Prints JSON lines; exits 0 only when every
// link stayed up, every value arrived once and in order, memory stayed flat after
// warm-up and no descriptor was left open.
#if canImport(Glibc)
import Glibc
#endif

let usage = """
    usage: swift-att-soak peripheral|central --transport T [--seconds S | --minutes M] [--links N]
                          [--interval-ms MS] [--warm-up-seconds S] [--rss-growth-kib K (4096)]
                          [--heap-growth-kib K (1024)] [--btsnoop FILE]
      peripheral  serve the soak service to N centrals; once all subscribed, notify a sequence
                  number every MS (default 2) and indicate one every fourth, for S seconds
      central     connect to N peripherals advertising the soak service, subscribe to both
                  characteristics, and check every value for S seconds
    """

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let options = try SoakOptions(arguments)
    switch arguments.first {
    case "peripheral": exit(try await SoakPeripheral.run(options))
    case "central": exit(try await SoakCentral.run(options))
    default:
        print(usage)
        exit(2)
    }
} catch {
    emit("{\"event\":\"error\",\"message\":\(quoted("\(error)"))}")
    exit(3)
}
