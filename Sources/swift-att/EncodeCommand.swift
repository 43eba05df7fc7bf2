import SwiftATTPDU
import SwiftATTJSON
import SwiftATTPDUJSON

/// `swift-att encode att <json>`.
enum EncodeCommand {
    static func run(_ arguments: [String]) throws(CommandError) -> Int32 {
        let args = try Arguments(arguments, flags: [], command: "encode")
        if args.wantsHelp {
            Output.print(Usage.encode)
            return 0
        }
        guard let proto = args.positionals.first else {
            throw .usage("encode: missing protocol: 'att' (see 'swift-att encode --help')")
        }
        guard proto == "att" else {
            throw .usage("encode: unknown protocol '\(proto)'; only 'att' is supported (see 'swift-att encode --help')")
        }
        let rest = args.positionals.dropFirst()
        guard let text = rest.first else {
            throw .usage("encode att: missing <json>, or '-' to read standard input (see 'swift-att encode --help')")
        }
        guard rest.count == 1 else {
            throw .usage("encode att: expected one <json> argument, got \(rest.count) (quote the JSON)")
        }
        if text == "-" { return encodeStandardInput() }
        try encodeDocument(text)
        return 0
    }

    /// A whole JSON document (an object or an array of objects) when standard input is one;
    /// otherwise one JSON object per line, a bad line reported and the rest still encoded.
    private static func encodeStandardInput() -> Int32 {
        let lines = Output.standardInputLines()
        let content = lines.filter { !$0.text.trimmingWhitespace.isEmpty }
        let whole = lines.map(\.text).joined(separator: "\n")
        if content.count <= 1 || (try? JSONValue.parse(whole)) != nil {
            do throws(CommandError) {
                try encodeDocument(whole)
                return 0
            } catch {
                Output.error(error.message)
                return 1
            }
        }
        var status: Int32 = 0
        for (number, line) in content {
            do throws(CommandError) {
                try encodeDocument(line)
            } catch {
                Output.error("line \(number): \(error.message)")
                status = 1
            }
        }
        return status
    }

    /// Prints the hex of the PDU a JSON object describes, or of each in an array. Nothing
    /// is printed unless every PDU is valid.
    private static func encodeDocument(_ text: String) throws(CommandError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw .input(notJSON(text, error))
        }
        var out: [String] = []
        if case let .array(elements) = value {
            for (i, element) in elements.enumerated() {
                out.append(try encode(element, context: "element \(i): "))
            }
        } else {
            out.append(try encode(value, context: ""))
        }
        for line in out { Output.print(line) }
    }

    /// What `encode att` takes, as its messages say it.
    static let wanted = #"a JSON object like the ones 'decode att --json' prints, such as {"opcode":10,"name":"Read Request","handle":3}"#

    /// Why `text` does not parse, and where. A text that does not even start a JSON
    /// object, array, string or number (`not json`, a bare word) is named whole: the
    /// parser's "expected 'null'" would only say which literal its first letter began.
    static func notJSON(_ text: String, _ error: JSONParseError) -> String {
        guard let first = text.first(where: { !$0.isWhitespace }) else { return "nothing to encode: give \(wanted)" }
        guard "{[\"-0123456789".contains(first) else {
            return "'\(excerpt(text, suffix: false))' is not JSON: give \(wanted)"
        }
        let place = "at offset \(error.offset), after '\(excerpt(String(text.prefix(error.offset)), suffix: true))'"
        return "not valid JSON \(place): \(error.reason)"
    }

    /// At most 40 characters of `text`: its last (`suffix`) or its first, marked as cut.
    private static func excerpt(_ text: String, suffix: Bool) -> String {
        let limit = 40
        guard text.count > limit else { return text }
        return suffix ? "…" + text.suffix(limit) : text.prefix(limit) + "…"
    }

    private static func encode(_ value: JSONValue, context: String) throws(CommandError) -> String {
        guard case .object = value else { throw .input("\(context)expected \(wanted), found \(value.kindDescription)") }
        do {
            return Hex.encode(try ATTPDU(json: value).encoded())
        } catch {
            throw .input("\(context)\(error)")
        }
    }
}
