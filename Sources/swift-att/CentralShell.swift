#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import SwiftATTJSON
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost

/// `swift-att central shell`: an interactive session, as bluetoothctl and gatttool's `-I`
/// give one. One command per line; values the peer pushes, and the link ending, are
/// printed as they happen.
///
/// Each command runs as a task of its own while the shell goes on listening, so Ctrl-C
/// can cancel it and the prompt can follow the link; lines typed meanwhile wait their
/// turn. On a terminal, `LineEditor` edits the lines (history, Tab completion) and keeps
/// output above the prompt; from a pipe, lines are read as they come and the prompt is
/// written to standard error.
actor CentralShell {
    let options: CentralCommand.Options
    let central: Central
    let report: EventReport
    let inputs: CentralInputs
    /// The terminal's editor; `nil` when standard input is not a terminal.
    let editor: LineEditor?
    /// What Tab offers, read by the editor's thread.
    let completion: SharedCompletion

    private var peer: Peer?
    private var database: GATTClientDatabase?
    /// Subscriptions by value handle: the task printing each one's values.
    private var subscriptions: [UInt16: Task<Void, Never>] = [:]
    /// Waits for the link to end, to say so and follow it in the prompt.
    private var linkWatch: Task<Void, Never>?

    /// The command running, by number; lines that came meanwhile.
    private var running: (number: Int, line: String, task: Task<Void, Never>)?
    private var queued: [String] = []
    private var commandsStarted = 0
    private var events: AsyncStream<Event>.Continuation?

    /// How long a cancelled command may take to end before the shell gives up waiting:
    /// an ATT request the device never answers cannot be withdrawn (Part F §3.3.2), and
    /// its 30-second transaction timeout is too long to hold the prompt.
    static let cancelGrace: Duration = .milliseconds(300)

    private enum Event: Sendable {
        case input(WatchedInput)
        case commandEnded(Int)
        case cancelGraceOver(Int)
        case linkEnded(Peer, HCIStatus?)
    }

    init(options: CentralCommand.Options, central: Central, report: EventReport, inputs: CentralInputs,
         editor: LineEditor?, completion: SharedCompletion) {
        self.options = options
        self.central = central
        self.report = report
        self.inputs = inputs
        self.editor = editor
        self.completion = completion
    }

    /// Exit status: 0 after `quit`, Ctrl-D or the end of input; 130 for Ctrl-C at an idle
    /// prompt of a shell that is not on a terminal (a script's shell is interrupted, as
    /// any command is).
    func run() async -> Int32 {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        events = continuation
        let forwarding = Task { [inputs] in
            for await input in inputs.subscribe() { continuation.yield(.input(input)) }
        }
        defer { forwarding.cancel() }
        if let target = options.target { _ = start("connect \(target)") }
        if editor == nil { Output.progress("type 'help' for commands, 'quit' to leave") }
        if running == nil { showPrompt() }
        var ending = false
        for await event in stream {
            switch event {
            case let .input(.line(line)):
                if running != nil {
                    queued.append(line)
                } else if !start(line) {
                    return await leave(0)
                }
            case let .commandEnded(number), let .cancelGraceOver(number):
                guard let command = running, command.number == number else { continue }
                if case .cancelGraceOver = event { Output.error(Self.abandoned(command.line)) }
                running = nil
                while running == nil, !queued.isEmpty {
                    if !start(queued.removeFirst()) { return await leave(0) }
                }
                if running == nil {
                    if ending { return await leave(0) }
                    showPrompt()
                }
            case .input(.signal(SIGINT)):
                if let command = running {
                    command.task.cancel()
                    queued.removeAll()  // Ctrl-C stops what was typed ahead too
                    let number = command.number
                    Task {
                        try? await Task.sleep(for: Self.cancelGrace)
                        continuation.yield(.cancelGraceOver(number))
                    }
                } else if let editor {
                    editor.discardLine()
                } else {
                    return await leave(130)
                }
            case .input(.signal):
                return await leave(0)
            case .input(.endOfInput):
                // A script's lines are all run before the shell leaves.
                if running == nil { return await leave(0) }
                ending = true
            case let .linkEnded(ended, status):
                guard let peer, peer === ended else { continue }
                let reason = status.map { " (\($0))" } ?? ""
                report.emit("disconnected from \(peer.address)\(reason)",
                            .object([JSONMember("event", .string("disconnected")), JSONMember("address", .string(peer.address.description))]
                                    + (status.map { [JSONMember("reason", .string($0.description))] } ?? [])))
                forget()
            }
        }
        return await leave(0)
    }

    /// Starts the command `line` holds; false for `quit`.
    private func start(_ line: String) -> Bool {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let command = words.first else {
            showPrompt()
            return true
        }
        if command == "quit" || command == "exit" { return false }
        commandsStarted += 1
        let number = commandsStarted
        let task = Task {
            do throws(CommandError) {
                try await self.execute(command, Array(words.dropFirst()), line: line)
                self.ended(number, nil)
            } catch {
                self.ended(number, error)
            }
        }
        running = (number, line, task)
        return true
    }

    /// A command's end. What an abandoned command (Ctrl-C, and it did not end in time)
    /// has to say comes too late and is not printed.
    private func ended(_ number: Int, _ failure: CommandError?) {
        guard let command = running, command.number == number else { return }
        if let failure {
            if command.task.isCancelled {
                Output.progress("\(Self.commandWord(command.line)): cancelled")
            } else {
                Output.error(failure.message)
            }
        }
        events?.yield(.commandEnded(number))
    }

    private static func commandWord(_ line: String) -> String {
        String(line.split(separator: " ").first ?? "")
    }

    /// What the shell says when a cancelled command is still waiting after
    /// `cancelGrace`: for an ATT request, that the device holds it.
    static func abandoned(_ line: String) -> String {
        let command = commandWord(line)
        if ["read", "write", "write-text", "write-cmd", "subscribe", "unsubscribe", "discover", "pair"].contains(command) {
            return "\(command): cancelled; the device has the request and has not answered it "
                + "(an ATT request cannot be withdrawn; the next one waits until it is answered or times out after 30 s)"
        }
        return "\(command): cancelled"
    }

    private var prompt: String {
        peer.map { "[\($0.address)]> " } ?? "[not connected]> "
    }

    /// The prompt: the editor's (shown all along, it changes with the link), or written
    /// to standard error when reading a pipe.
    private func showPrompt() {
        if let editor {
            editor.setPrompt(prompt)
        } else {
            Output.writeError(prompt)
        }
    }

    static let help = """
        commands:
          scan [SECONDS]                  list advertisers (Ctrl-C stops)
          connect <address|name>          connect (and exchange MTU), discover the database
          discover                        print the database tree, values read
          read <characteristic>           read a value
          write <characteristic> <hex>    write with response (long values too)
          write-cmd <characteristic> <hex>  write without response
          write-text <characteristic> TEXT  write UTF-8 text with response
          subscribe <characteristic>      print notifications/indications as they come
          unsubscribe <characteristic>
          pair                            pair (and bond) with the connected device
          mtu                             the link's ATT_MTU
          disconnect
          quit                            (or Ctrl-D)
        a characteristic is a UUID (2A37), a name (heart-rate-measurement) or a handle (0x0012);
        Tab completes commands, characteristics and devices; Ctrl-C cancels the running command
        """

    private func execute(_ command: String, _ words: [String], line: String) async throws(CommandError) {
        switch command {
        case "help":
            Output.print(Self.help)
        case "scan":
            var scanOptions = options
            scanOptions.action = .scan
            scanOptions.scanTimeout = try words.first.map { text throws(CommandError) in try CentralCommand.seconds(text, "scan") } ?? .seconds(5)
            _ = try await CentralScan.run(scanOptions, central: central, report: report, inputs: inputs) { [completion] device in
                completion.update { state in
                    state.devices.append(device.address.description)
                    if let name = device.data.localName?.name, !name.contains(" ") { state.devices.append(name) }
                }
            }
        case "connect":
            guard !words.isEmpty else { throw .usage("connect <address|name>") }
            try await connect(String(String(Self.rest(of: line, after: 1)).trimmingWhitespace))
        case "disconnect":
            guard let peer else { throw .usage("not connected") }
            await disconnect()
            report.emit("disconnected from \(peer.address)", ["event": "disconnected", "address": .string(peer.address.description)])
        case "mtu":
            let mtu = try await connected().mtu
            report.emit("ATT_MTU \(mtu)", ["event": "mtu", "mtu": .integer(mtu)])
        case "discover":
            _ = try await actions().discover()
        case "pair":
            _ = try await actions().pair()
        case "read":
            guard words.count == 1 else { throw .usage("read <characteristic>") }
            let actions = try actions()
            let characteristic = try await find(words[0])
            let value = try await actions.read(characteristic)
            if Task.isCancelled { throw .usage("read: cancelled") }
            actions.emitValue(value, of: characteristic, event: "read")
        case "write", "write-cmd", "write-text":
            guard words.count >= 2 else { throw .usage("\(command) <characteristic> <\(command == "write-text" ? "text" : "hex")>") }
            _ = try CentralConnector.characteristicReference(words[0])
            let value: [UInt8]
            if command == "write-text" {
                value = Array(Self.rest(of: line, after: 2).utf8)  // everything after the characteristic, spaces kept
            } else {
                do {
                    value = try Hex.decode(words[1])
                } catch {
                    throw .input("'\(words[1])' is not hex (\(error)); use write-text to write UTF-8 text")
                }
            }
            let characteristic = try await find(words[0])
            let withoutResponse = command == "write-cmd"
            if withoutResponse, !characteristic.properties.contains(.writeWithoutResponse) {
                throw .input("\(CentralTree.label(characteristic.uuid)) does not take Write Commands "
                             + "(it allows: \(CentralTree.properties(characteristic.properties).joined(separator: ", "))); use write")
            }
            let type = try await actions().write(value, to: characteristic, withoutResponse: withoutResponse)
            report.emit("wrote \(EventReport.bytes(value.count)) to \(CentralTree.label(characteristic.uuid))"
                        + (type == .withoutResponse ? " (without response)" : ""),
                        ["event": "written", "handle": .integer(Int(characteristic.valueHandle)), "value": .string(Hex.encode(value))])
        case "subscribe":
            guard words.count == 1 else { throw .usage("subscribe <characteristic>") }
            try await subscribe(try await find(words[0]))
        case "unsubscribe":
            guard words.count == 1 else { throw .usage("unsubscribe <characteristic>") }
            let characteristic = try await find(words[0])
            guard let printing = subscriptions.removeValue(forKey: characteristic.valueHandle) else {
                throw .usage("not subscribed to \(CentralTree.label(characteristic.uuid))")
            }
            printing.cancel()
            let peer = try connected()
            do {
                try await peer.setNotify([], for: characteristic)
            } catch {
                throw CentralSession.failure("unsubscribing from \(CentralTree.label(characteristic.uuid))", error)
            }
            report.emit("unsubscribed from \(CentralTree.label(characteristic.uuid))",
                        ["event": "unsubscribed", "handle": .integer(Int(characteristic.valueHandle))])
        default:
            let near = ShellCompletion.commands.filter { $0.hasPrefix(String(command.prefix(2))) }
            let printable = command.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } ? "'\(command)'" : "command"
            throw .usage("unknown \(printable == "command" ? "command" : "command \(printable)")"
                         + (near.isEmpty ? "" : " (did you mean \(near.joined(separator: ", "))?)") + "; type 'help' for the commands")
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
        await disconnect()
        var search = options.search
        search.target = target
        let peer = try await CentralConnector(search: search, central: central).connect(defaultServices: [], report: report)
        if Task.isCancelled {
            try? await peer.disconnect()
            throw .usage("connect: cancelled")
        }
        self.peer = peer
        linkWatch = Task { [events] in
            let status = await peer.disconnection()
            events?.yield(.linkEnded(peer, status))
        }
        completion.update { $0.devices.append(peer.address.description) }
        showPrompt()
        // The database, so that Tab knows the characteristics and `read` needs no wait.
        _ = try await knownDatabase()
    }

    private func connected() throws(CommandError) -> Peer {
        guard let peer else { throw .usage("not connected (connect <address|name> first)") }
        return peer
    }

    private func actions() throws(CommandError) -> CentralActions {
        var terminalOptions = options
        terminalOptions.action = .shell
        return CentralActions(options: terminalOptions, peer: try connected(), report: report, inputs: inputs)
    }

    private func knownDatabase() async throws(CommandError) -> GATTClientDatabase {
        if let database, !database.services.isEmpty { return database }
        let discovered = try await actions().database()
        database = discovered
        let characteristics = discovered.services.flatMap { $0.characteristics.map(\.characteristic.uuid) }
        Output.progress("\(String(count: discovered.services.count, "service")), \(String(count: characteristics.count, "characteristic"))"
                        + " ('discover' prints them with their values)")
        completion.update { state in
            state.characteristics = characteristics.map(\.description) + characteristics.compactMap(CharacteristicNames.slug(for:))
        }
        return discovered
    }

    /// A characteristic of the connected peer, discovering the database the first time.
    private func find(_ spec: String) async throws(CommandError) -> GATTClient.Characteristic {
        _ = try CentralConnector.characteristicReference(spec)
        return try CentralConnector.characteristic(spec, in: try await knownDatabase())
    }

    private func subscribe(_ characteristic: GATTClient.Characteristic) async throws(CommandError) {
        let peer = try connected()
        let values: GATTNotificationStream
        do {
            values = try await peer.notifications(of: characteristic)
        } catch {
            throw CentralSession.failure("subscribing to \(CentralTree.label(characteristic.uuid))", error)
        }
        let actions = try actions()
        subscriptions[characteristic.valueHandle]?.cancel()
        // Printed from the command's loop, where the values arrive, not via the shell actor.
        subscriptions[characteristic.valueHandle] = Task.onCommandLoop {
            do {
                for try await value in values {
                    actions.emitValue(value.value, of: characteristic, event: value.isIndication ? "indication" : "notification")
                }
            } catch {}  // the link ended: the shell says so once, not once per subscription
        }
        report.emit("subscribed to \(CentralTree.label(characteristic.uuid)); values print as they come",
                    ["event": "subscribed", "handle": .integer(Int(characteristic.valueHandle))])
    }

    /// Ends the subscriptions and the link, quietly (the link watch is stopped first).
    private func disconnect() async {
        let peer = self.peer
        forget()
        if let peer { try? await peer.disconnect() }
    }

    /// Drops what belonged to the link, and shows the prompt without it.
    private func forget() {
        linkWatch?.cancel()
        linkWatch = nil
        for task in subscriptions.values { task.cancel() }
        subscriptions.removeAll()
        let wasConnected = peer != nil
        peer = nil
        database = nil
        completion.update { $0.characteristics = [] }
        guard wasConnected else { return }
        if let editor {
            editor.setPrompt(prompt)
        } else if running == nil {
            showPrompt()
        }
    }

    private func leave(_ status: Int32) async -> Int32 {
        running?.task.cancel()
        await disconnect()
        events?.finish()
        return status
    }
}
