/// The help texts. Only what exists is listed.
enum Usage {
    static let main = """
        USAGE: swift-att <command> [<arguments>]

        A Bluetooth Low Energy host stack's tools: decode and encode ATT PDUs, read captures.

        COMMANDS:
          decode att <hex> [--json]   Decode an ATT PDU and print its fields, or its JSON form.
          encode att <json>           Encode an ATT PDU from its JSON form; print its bytes in hex.
          dump <file.btsnoop>         Print a btsnoop capture decoded: HCI, L2CAP and ATT.
          help [<command>]            Show this help, or a command's help.

          Give '-' instead of <hex> or <json> to read standard input, one PDU per line.

        OPTIONS:
          -h, --help                  Show help.
          --version                   Show the version.

        EXAMPLES:
          swift-att decode att 10 01 00 ff ff 00 28
          swift-att decode att 0a1700 --json
          swift-att encode att '{"opcode":10,"handle":23}'
          swift-att decode att - --json < pdus.txt | swift-att encode att -
        """

    static let decode = """
        USAGE: swift-att decode att <hex> [--json]

        Decodes one ATT PDU (opcode first, as carried on L2CAP channel 0x0004) and prints
        its name, opcode and fields.

        ARGUMENTS:
          <hex>       The PDU's bytes: 0a1700, "0a 17 00", 0a:17:00 or 0x0a1700.
                      '-' reads standard input: one PDU per line; blank lines and lines
                      starting with '#' are skipped.

        OPTIONS:
          --json      Print the JSON form instead (one object per line), as 'encode' reads it.
          -h, --help  Show this help.

        Exits 0 on success, 1 if any input is not a valid PDU, 2 on a usage error.
        """

    static let encode = """
        USAGE: swift-att encode att <json>

        Encodes an ATT PDU from its JSON form and prints its bytes as lowercase hex, one
        PDU per line. The form is what 'swift-att decode att <hex> --json' prints:
          {"opcode":18,"name":"Write Request","handle":21,"value":"0100"}
        Keys ending in 'Name' (and "name") are for people and are ignored.

        ARGUMENTS:
          <json>      One JSON object, or an array of them.
                      '-' reads standard input: a JSON object or array, or one object per line.

        OPTIONS:
          -h, --help  Show this help.

        Exits 0 on success, 1 if any input is not a valid PDU, 2 on a usage error.
        """

    static let dump = """
        USAGE: swift-att dump <file.btsnoop>

        Prints every packet of a btsnoop capture (Wireshark, btmon, Android, Bumble and
        swift-att's own --btsnoop files): HCI commands and events by name with their
        fields, ACL data reassembled into L2CAP frames, ATT PDUs decoded.

        Exits 0 on success, 1 if the file cannot be read or is not a valid capture.
        """

    /// `swift-att help [command]`.
    static func help(for arguments: [String]) throws(CommandError) -> Int32 {
        switch arguments.first {
        case nil: Output.print(main)
        case "decode": Output.print(decode)
        case "encode": Output.print(encode)
        case "dump": Output.print(dump)
        case "help": Output.print(main)
        case let other?: throw .usage("no help for unknown command '\(other)' (see 'swift-att --help')")
        }
        return 0
    }
}
