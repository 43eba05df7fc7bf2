import SwiftATTCore
/// What `decode att` and `decode ad` share: the bytes come as hex in the arguments, or
/// one item per line of standard input (`-`); each is printed for people or as one JSON
/// line. A bad stdin line is reported with its number and the rest still decoded.
enum HexDecoding {
    /// How one item reads: its human text and its JSON line.
    typealias Render = (_ bytes: [UInt8], _ json: Bool) throws(CommandError) -> String

    static func run(_ args: Arguments, command: String, render: Render) throws(CommandError) -> Int32 {
        let hexArguments = args.positionals.dropFirst()
        guard !hexArguments.isEmpty else {
            throw .usage("\(command): missing <hex>, or '-' to read standard input (see 'swift-att decode --help')")
        }
        let json = args.has("--json")
        if hexArguments.contains("-") {
            guard hexArguments.count == 1 else {
                throw .usage("\(command): '-' reads standard input and takes no other <hex>")
            }
            return standardInput(json: json, render: render)
        }
        // `decode att 0a 17 00` without quotes reads as one item.
        Output.print(try render(bytes(hexArguments.joined(separator: " ")), json))
        return 0
    }

    private static func standardInput(json: Bool, render: Render) -> Int32 {
        var status: Int32 = 0
        var first = true
        Output.forEachStandardInputLine { number, line in
            let text = line.trimmingWhitespace
            if text.isEmpty || text.hasPrefix("#") { return }
            do throws(CommandError) {
                let rendered = try render(bytes(String(text)), json)
                Output.print(json || first ? rendered : "\n" + rendered)
                first = false
                Output.flush()
            } catch {
                Output.error("line \(number): \(error.message)")
                status = 1
            }
        }
        return status
    }

    static func bytes(_ hex: String) throws(CommandError) -> [UInt8] {
        do {
            return try Hex.decode(hex)
        } catch {
            throw .input(error.description)
        }
    }
}
