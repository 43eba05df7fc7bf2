import SwiftATTPDU
import SwiftATTJSON
import SwiftATTPDUJSON

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
        return try HexDecoding.run(args, command: "decode att") { bytes, json throws(CommandError) in
            let pdu = try decode(bytes)
            return json ? pdu.json.serialized() : pdu.text
        }
    }

    static func decode(_ bytes: [UInt8]) throws(CommandError) -> ATTPDU {
        do {
            return try ATTPDU(parsing: bytes)
        } catch {
            throw .input(error.description)
        }
    }
}
