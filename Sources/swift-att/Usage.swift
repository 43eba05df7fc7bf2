/// The help texts. Only what exists is listed.
enum Usage {
    static let main = """
        USAGE: swift-att <command> [<arguments>]

        A Bluetooth Low Energy host stack's tools: decode and encode ATT PDUs, read captures.

        COMMANDS:
          decode att <hex> [--json]   Decode an ATT PDU and print its fields, or its JSON form.
          decode ad <hex> [--json]    Decode advertising or scan response data, structure by structure.
          encode att <json>           Encode an ATT PDU from its JSON form; print its bytes in hex.
          dump <file.btsnoop>         Print a btsnoop capture decoded: HCI, L2CAP and ATT.
          info [--transport T]        Reset a controller and print what it is and supports.
          peripheral <profile>        Serve heart-rate, transfer, hc08 or light as a GATT peripheral.
          adapters [--json]           List the kernel's Bluetooth adapters and who holds each.
          bridge <A> <B>              Join two HCI endpoints (vhci, tcp, serial): a controller becomes hciN.
          help [<command>]            Show this help, or a command's help.

          Give '-' instead of <hex> or <json> to read standard input, one PDU or payload per line.

        OPTIONS:
          -h, --help                  Show help.
          --version                   Show the version.

        EXAMPLES:
          swift-att decode att 10 01 00 ff ff 00 28
          swift-att decode att 0a1700 --json
          swift-att decode ad 0201060303aafe0e16aafe10ec016578616d706c6500
          swift-att encode att '{"opcode":10,"handle":23}'
          swift-att decode att - --json < pdus.txt | swift-att encode att -
          swift-att peripheral heart-rate --transport tcp:127.0.0.1:9000
        """

    static let decode = """
        USAGE: swift-att decode att <hex> [--json]
               swift-att decode ad <hex> [--json]

        'att' decodes one ATT PDU (opcode first, as carried on L2CAP channel 0x0004) and
        prints its name, opcode and fields.

        'ad' decodes advertising or scan response data (legacy up to 31 bytes, extended up
        to 1650) and prints one line per AD structure: its type and decoded value (flags,
        service UUIDs, names, Tx power, appearance, service and manufacturer data...), with
        iBeacon and Eddystone frames decoded below their structure and any padding noted.

        ARGUMENTS:
          <hex>       The bytes: 0a1700, "0a 17 00", 0a:17:00 or 0x0a1700.
                      '-' reads standard input: one PDU or payload per line; blank lines
                      and lines starting with '#' are skipped.

        OPTIONS:
          --json      Print the JSON form instead (one object per line): for 'att' the form
                      'encode' reads; for 'ad' the form of Fixtures/advertising/README.md.
          -h, --help  Show this help.

        Exits 0 on success, 1 if any input is not valid (bad hex, a malformed PDU or AD
        structure, named with its byte offset), 2 on a usage error.
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

    static let info = """
        USAGE: swift-att info [--transport <transport>] [--btsnoop <file>] [--json] [--round-trips <n>]

        Opens a controller, runs swift-att's start-up sequence (reset, read version,
        supported commands and features, addresses and buffer sizes, set the event masks
        and a static random address) and prints what it learned.

        OPTIONS:
          --transport <t>   hci0 (default; or $SWIFT_ATT_TRANSPORT), serial:/dev/ttyUSB0[@BAUD][,rtscts],
                            tcp:HOST:PORT, tcp-server:HOST:PORT
          --btsnoop <file>  Write every HCI packet to a btsnoop capture (Wireshark, swift-att dump).
          --json            Print one JSON object instead.
          --round-trips <n> Then time n Read BD_ADDR commands and print the median round trip.

        Exits 0 on success, 2 on a usage error, 3 if the controller or transport fails.
        """

    static let peripheral = """
        USAGE: swift-att peripheral <profile> [--transport <t>] [--name <name>] [--btsnoop <file>]
                                    [--duration <seconds>] [--json] [<profile options>]

        Serves one of the built-in profiles as a GATT peripheral, advertises it, and prints
        one line per event: connections, MTU changes, subscriptions, what is sent and what
        centrals write. Runs until SIGINT or SIGTERM (centrals are disconnected and the
        controller released) or for --duration seconds. Re-advertises after a disconnection.

        PROFILES:
          heart-rate  Heart Rate service 180D: Measurement 2A37 (notify) from a simulated
                      wearer (60-100 BPM, sensor contact, RR-interval, energy expended every
                      10th), Body Sensor Location 2A38 (read: chest), Control Point 2A39
                      (write 01 resets energy expended; any other value gets ATT error 0x80).
          transfer    Apple's BTLE Transfer service E20A39F4-...: when a central subscribes to
                      08590F7E-... the text goes out in 20-byte notifications, each after the
                      last was accepted (pausing until ready to update), then "EOM".
          hc08        HC-08 serial module, service FFE0, characteristic FFE1 (read, write
                      without response, notify): lines on standard input (when it is not a
                      terminal) are notified; what centrals write is printed as UTF-8.
          light       Red Bear Labs BLE Shield 713D0000-...: two-byte light commands written
                      without response to RX 713D0003-... ([light, 00 off | 01 on]) are
                      printed decoded; TX 713D0002-... notifies.

        OPTIONS:
          --transport <t>     hci0 (default; or $SWIFT_ATT_TRANSPORT), serial:/dev/ttyUSB0[@BAUD][,rtscts],
                              tcp:HOST:PORT, tcp-server:HOST:PORT
          --name <name>       The advertised and GAP Device Name (defaults: "swift-att HRM",
                              "swift-att Transfer", "HC-08", "BLE Shield").
          --btsnoop <file>    Write every HCI packet to a btsnoop capture.
          --duration <s>      Stop after this many seconds.
          --json              Print one JSON object per event instead ({"event":"connected",...}).
          --text <text>       transfer: the text to send (default: a built-in paragraph).
          --file <path>       transfer: send this file's contents instead.
          --interval <ms>     heart-rate: time between measurements (default 1000).
          --uint16            heart-rate: write the heart rate as uint16 (flags bit 0 set).
          -h, --help          Show this help.

        EXAMPLES:
          swift-att peripheral heart-rate --transport hci0
          swift-att peripheral transfer --text "Hello, central" --json
          tail -f arduino.log | swift-att peripheral hc08 --transport serial:/dev/ttyACM0@1000000

        Exits 0 when stopped, 1 if --file cannot be read, 2 on a usage error, 3 if the
        controller or transport fails.
        """

    /// `swift-att help [command]`.
    static func help(for arguments: [String]) throws(CommandError) -> Int32 {
        switch arguments.first {
        case nil: Output.print(main)
        case "decode": Output.print(decode)
        case "encode": Output.print(encode)
        case "dump": Output.print(dump)
        case "info": Output.print(info)
        case "peripheral": Output.print(peripheral)
        case "adapters": Output.print(adapters)
        case "bridge": Output.print(bridge)
        case "help": Output.print(main)
        case let other?: throw .usage("no help for unknown command '\(other)' (see 'swift-att --help')")
        }
        return 0
    }
}
