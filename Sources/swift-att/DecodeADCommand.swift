import SwiftATTAdvertising
import SwiftATTJSON
import SwiftATTCore

/// `swift-att decode ad <hex> [--json]`: advertising or scan response data, as an LE
/// Advertising Report or an Extended Advertising Report carries it (Core 5.4 Vol 3 Part C §11).
enum DecodeADCommand {
    /// Runs with the arguments `decode` has already split; the first positional is `ad`.
    static func run(_ args: Arguments) throws(CommandError) -> Int32 {
        try HexDecoding.run(args, command: "decode ad") { bytes, json throws(CommandError) in
            let data = try decode(bytes)
            return json ? data.json.serialized() : data.text
        }
    }

    static func decode(_ bytes: [UInt8]) throws(CommandError) -> AdvertisingData {
        do {
            return try AdvertisingData(parsing: bytes)
        } catch {
            throw .input(error.description)
        }
    }
}
