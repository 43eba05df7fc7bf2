import SwiftATTJSON
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost

/// `swift-att central shell`: an interactive session, like gatttool's `-I` or
/// bluetoothctl's `gatt` menu. One command per line on standard input; values the peer
/// pushes are printed as they arrive, between commands.
final class CentralShell {
    let options: CentralCommand.Options
    let central: Central
    let report: EventReport
    let inputs: CentralInputs
    private var peer: Peer?
    private var database: GATTClientDatabase?
    /// Subscriptions by value handle: the task printing each one's values.
    private var subscriptions: [UInt16: Task<Void, Never>] = [:]

    init(options: CentralCommand.Options, central: Central, report: EventReport, inputs: CentralInputs) {
        self.options = options
        self.central = central
        self.report = report
        self.inputs = inputs
    }

    static let help = """
        commands:
          scan [SECONDS]                  list advertisers
          connect <address|name>          connect (and exchange MTU)
          discover                        print the database tree
          read <uuid|handle>              read a value
          write <uuid|handle> <hex>       write with response (long values too)
          write-cmd <uuid|handle> <hex>   write without response
          write-text <uuid|handle> TEXT   write UTF-8 text with response
          subscribe <uuid|handle>         print notifications/indications as they come
          unsubscribe <uuid|handle>
          mtu                             the link's ATT_MTU
          disconnect
          quit
        """

    func run() async throws(CommandError) -> Int32 {
        if let target = options.target {
            do throws(CommandError) { try await connect(target) } catch { Output.error(error.message) }
        }
        Output.progress("type 'help' for commands, 'quit' to leave")
        prompt()
        for await input in inputs.subscribe() {
            switch input {
            case .signal, .endOfInput:
                await finish()
                return 0
            case let .line(line):
                let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard let command = words.first else {
                    prompt()
                    continue
                }
                if command == "quit" || command == "exit" {
                    await finish()
                    return 0
                }
                do throws(CommandError) {
                    try await execute(command, Array(words.dropFirst()), line: line)
                } catch {
                    Output.error(error.message)
                }
                prompt()
            }
        }
        await finish()
        return 0
    }

    private func prompt() {
        Output.writeError(peer == nil ? "[not connected]> " : "[\(peer!.address)]> ")
    }

    private func execute(_ command: String, _ words: [String], line: String) async throws(CommandError) {
        switch command {
        case "help":
            Output.print(Self.help)
        case "scan":
            var scanOptions = options
            scanOptions.action = .scan
            scanOptions.scanTimeout = try words.first.map { text throws(CommandError) in try CentralCommand.seconds(text, "scan") } ?? .seconds(5)
            _ = try await CentralScan.run(scanOptions, central: central, report: report, inputs: inputs)
        case "connect":
            guard let target = words.first else { throw .usage("connect <address|name>") }
            try await connect(target)
        case "disconnect":
            await finish()
        case "mtu":
            let mtu = try await connected().mtu
            report.emit("ATT_MTU \(mtu)", ["event": "mtu", "mtu": .integer(mtu)])
        case "discover":
            _ = try await actions().discover()
        case "read":
            guard words.count == 1 else { throw .usage("read <uuid|handle>") }
            let actions = try actions()
            let characteristic = try await find(words[0])
            actions.emitValue(try await actions.read(characteristic), of: characteristic, event: "read")
        case "write", "write-cmd", "write-text":
            guard words.count >= 2 else { throw .usage("\(command) <uuid|handle> <value>") }
            let characteristic = try await find(words[0])
            let value: [UInt8]
            if command == "write-text" {
                // Everything after the characteristic, spaces kept.
                value = Array(Self.rest(of: line, after: 2).utf8)
            } else {
                value = try CentralActions.value(words[1], text: false)
            }
            let type = try await actions().write(value, to: characteristic, withoutResponse: command == "write-cmd")
            report.emit("wrote \(EventReport.bytes(value.count))\(type == .withoutResponse ? " (without response)" : "")",
                        ["event": "written", "handle": .integer(Int(characteristic.valueHandle)), "value": .string(Hex.encode(value))])
        case "subscribe":
            guard words.count == 1 else { throw .usage("subscribe <uuid|handle>") }
            try await subscribe(try await find(words[0]))
        case "unsubscribe":
            guard words.count == 1 else { throw .usage("unsubscribe <uuid|handle>") }
            let characteristic = try await find(words[0])
            subscriptions.removeValue(forKey: characteristic.valueHandle)?.cancel()
            try? await connected().setNotify([], for: characteristic)
        default:
            throw .usage("unknown command '\(command)' (type 'help')")
        }
    }

    /// `line` after its first `count` words and the spaces that follow them.
    static func rest(of line: String, after count: Int) -> Substring {
        var rest = line[...]
        for _ in 0..<count {
            rest = rest.drop(while: { $0 == " " })
            rest = rest.drop(while: { $0 != " " })
        }
        return rest.dropFirst()
    }

    private func connect(_ target: String) async throws(CommandError) {
        await finish()
        var search = options.search
        search.target = target
        peer = try await CentralConnector(search: search, central: central).connect(defaultServices: [], report: report)
    }

    private func connected() throws(CommandError) -> Peer {
        guard let peer else { throw .usage("not connected (connect <address|name> first)") }
        return peer
    }

    private func actions() throws(CommandError) -> CentralActions {
        CentralActions(options: options, peer: try connected(), report: report, inputs: inputs)
    }

    /// A characteristic of the connected peer, discovering the database the first time.
    private func find(_ spec: String) async throws(CommandError) -> GATTClient.Characteristic {
        let actions = try actions()
        if database == nil || database?.services.isEmpty == true { database = try await actions.database() }
        return try CentralConnector.characteristic(spec, in: database!)
    }

    private func subscribe(_ characteristic: GATTClient.Characteristic) async throws(CommandError) {
        let actions = try actions()
        let values = try await Self.notifications(of: characteristic, on: actions.peer)
        subscriptions[characteristic.valueHandle]?.cancel()
        subscriptions[characteristic.valueHandle] = Task { await CentralShell.print(values, of: characteristic, with: actions) }
        report.emit("subscribed to \(CentralTree.label(characteristic.uuid))", ["event": "subscribed", "handle": .integer(Int(characteristic.valueHandle))])
    }

    private static func notifications(
        of characteristic: GATTClient.Characteristic, on peer: Peer
    ) async throws(CommandError) -> GATTNotificationStream {
        do {
            return try await peer.notifications(of: characteristic)
        } catch {
            throw CentralSession.failure("subscribing to \(CentralTree.label(characteristic.uuid))", error)
        }
    }

    /// Prints each value of a subscription until it ends; an end other than the
    /// shell's own unsubscribing (the link went down) is reported.
    private static func print(
        _ values: GATTNotificationStream, of characteristic: GATTClient.Characteristic, with actions: CentralActions
    ) async {
        do {
            for try await value in values {
                actions.emitValue(value.value, of: characteristic, event: value.isIndication ? "indication" : "notification")
            }
        } catch {
            Output.error("\(CentralTree.label(characteristic.uuid)): \(error)")
        }
    }

    /// Ends the subscriptions and the link.
    private func finish() async {
        for task in subscriptions.values { task.cancel() }
        subscriptions.removeAll()
        if let peer { try? await peer.disconnect() }
        peer = nil
        database = nil
    }
}
