import Advertising
import ATTJSON
import BluetoothCore

/// `swift-att decode ad <hex> [--json]`: advertising or scan response data, as an LE
/// Advertising Report or an Extended Advertising Report carries it (Core 5.4 Vol 3 Part C §11).
enum DecodeADCommand {
    /// Runs with the arguments `decode` has already split; the first positional is `ad`.
    static func run(_ args: Arguments) throws(CommandError) -> Int32 {
        let hexArguments = args.positionals.dropFirst()
        guard !hexArguments.isEmpty else {
            throw .usage("decode ad: missing <hex>, or '-' to read standard input (see 'swift-att decode --help')")
        }
        let json = args.has("--json")

        if hexArguments.contains("-") {
            guard hexArguments.count == 1 else {
                throw .usage("decode ad: '-' reads standard input and takes no other <hex>")
            }
            return decodeStandardInput(json: json)
        }
        // `decode ad 02 01 06` without quotes reads as one payload.
        let data = try decode(hexArguments.joined(separator: " "))
        Output.print(json ? data.json.serialized() : data.text)
        return 0
    }

    /// One payload per line, each printed as it arrives; a bad line is reported and the
    /// rest still decoded.
    private static func decodeStandardInput(json: Bool) -> Int32 {
        var status: Int32 = 0
        var first = true
        Output.forEachStandardInputLine { number, line in
            let text = line.trimmingWhitespace
            if text.isEmpty || text.hasPrefix("#") { return }
            do throws(CommandError) {
                let data = try decode(String(text))
                if json {
                    Output.print(data.json.serialized())
                } else {
                    Output.print((first ? "" : "\n") + data.text)
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

    static func decode(_ hex: String) throws(CommandError) -> AdvertisingData {
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(hex)
        } catch {
            throw .input(error.description)
        }
        do {
            return try AdvertisingData(parsing: bytes)
        } catch {
            throw .input(error.description)
        }
    }
}
