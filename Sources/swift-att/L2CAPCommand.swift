/// `swift-att l2cap listen <psm>` and `swift-att l2cap connect <device> <psm>`: an L2CAP
/// credit-based channel (Core 5.4 Vol 3 Part A §4.22–4.28) between standard input and
/// output, as netcat does with a TCP connection, or a one-way transfer measured
/// (`--bench`). Every option is checked (`L2CAPOptions`) before the controller is opened.
enum L2CAPCommand {
    static func run(_ arguments: [String]) async throws(CommandError) -> Int32 {
        let args = try L2CAPOptions.arguments(arguments)
        if args.wantsHelp {
            Output.print(Usage.l2cap)
            return 0
        }
        return try await L2CAPSession.run(try L2CAPOptions(args))
    }
}
