import ATT
import ATTJSON

/// `swift-att decode att <hex> [--json]`; `decode ad` goes on to `DecodeADCommand`.
enum DecodeCommand {
    static func run(_ arguments: [String]) throws(CommandError) -> Int32 {
        let args = try Arguments(arguments, flags: ["--json"], command: "decode")
        if args.wantsHelp {
            Output.print(Usage.decode)
            return 0
        }
        guard let proto = args.positionals.first else {
            throw .usage("decode: missing protocol: 'att' or 'ad' (see 'swift-att decode --help')")
        }
        switch proto {
        case "att": break
        case "ad": return try DecodeADCommand.run(args)
        default:
            throw .usage("decode: unknown protocol '\(proto)'; 'att' or 'ad' (see 'swift-att decode --help')")
        }
        let hexArguments = args.positionals.dropFirst()
        guard !hexArguments.isEmpty else {
            throw .usage("decode att: missing <hex>, or '-' to read standard input (see 'swift-att decode --help')")
        }
        let json = args.has("--json")

        if hexArguments.contains("-") {
            guard hexArguments.count == 1 else {
                throw .usage("decode att: '-' reads standard input and takes no other <hex>")
            }
            return decodeStandardInput(json: json)
        }
        // `decode att 0a 17 00` without quotes reads as one PDU.
        let pdu = try decode(hexArguments.joined(separator: " "))
        Output.print(json ? pdu.json.serialized() : pdu.text)
        return 0
    }

    /// One PDU per line, each printed as it arrives; a bad line is reported and the rest
    /// still decoded.
    private static func decodeStandardInput(json: Bool) -> Int32 {
        var status: Int32 = 0
        var first = true
        Output.forEachStandardInputLine { number, line in
            let text = line.trimmingWhitespace
            if text.isEmpty || text.hasPrefix("#") { return }
            do throws(CommandError) {
                let pdu = try decode(String(text))
                if json {
                    Output.print(pdu.json.serialized())
                } else {
                    Output.print((first ? "" : "\n") + pdu.text)
                }
                first = false
                Output.flush()
            } catch {
                Output.error("line \(number): \(error.message)")
                status = 1
            }
        }
        return status
    }

    static func decode(_ hex: String) throws(CommandError) -> ATTPDU {
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(hex)
        } catch {
            throw .input(error.description)
        }
        do {
            return try ATTPDU(parsing: bytes)
        } catch {
            throw .input(error.description)
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and carriage returns.
    var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[start...end]
    }
}
