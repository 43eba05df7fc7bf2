/// The help texts. Only what exists is listed.
enum Usage {
    static let main = """
        USAGE: swift-att <command> [<arguments>]

        A Bluetooth Low Energy host stack's tools: decode and encode ATT PDUs, read captures.

        COMMANDS:
          decode att <hex> [--json]   Decode an ATT PDU and print its fields, or its JSON form.
          decode ad <hex> [--json]    Decode advertising or scan response data, structure by structure.
          encode att <json>           Encode an ATT PDU from its JSON form; print its bytes in hex.
          dump <file.btsnoop>         Print a btsnoop capture decoded: HCI, L2CAP, ATT (--json).
          info [--transport T]        Reset a controller and print what it is and supports.
          peripheral <profile>        Serve a GATT peripheral: heart-rate (a heart-rate monitor),
                                      transfer (chunked text), hc08 (an HC-08 serial module), light
                                      (a Red Bear Labs light shield), battery, device-information,
                                      or --database FILE.json (any database described in JSON).
          central <action> …          Scan, connect, discover, read, write, subscribe as a GATT
                                      central, or talk to a heart-rate monitor, an HC-08 module, a
                                      light shield or a chunked text transfer.
          l2cap listen|connect …      An L2CAP credit-based channel between standard input and
                                      output, as netcat does over TCP, or a measured transfer.
          adapters [--json]           List the kernel's Bluetooth adapters and who holds each.
          bonds [list|remove|clear]   List the bonds kept from run to run, or forget them.
          bridge <A> <B>              Join two HCI endpoints (vhci, tcp, serial): a controller becomes hciN.
          help [<command>]            Show this help, or a command's help.

          Give '-' instead of <hex> or <json> to read standard input, one PDU or payload per line.

          info, peripheral, central and l2cap keep each adapter's identity (a static random address
          and IRK, made on first use) and its bonds in a bond file (--bonds FILE; by default
          $XDG_DATA_HOME/swift-att/bonds/bonds.json or ~/.local/share/swift-att/bonds/bonds.json),
          so a bonded device is encrypted again without pairing on the next run. One swift-att
          at a time uses a file: give two that run together a file each.

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
          swift-att central heart-rate --transport tcp:127.0.0.1:9001
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
        USAGE: swift-att dump <file.btsnoop> [--json] [--filter <terms>]

        Prints every packet of a btsnoop capture (Wireshark, btmon, Android, Bumble and
        swift-att's own --btsnoop files): HCI commands and events by name with their
        codes and fields (LE Meta events with their subevent code), advertising data in
        commands and reports decoded into AD structures, ACL data reassembled into L2CAP
        frames, and the ATT, SMP and LE signaling PDUs inside them decoded. Records are
        numbered from 1, in the listing and in errors. The file is read a buffer at a
        time: memory stays the same whatever its size.

        OPTIONS:
          --json            One JSON object per record, one per line: record, time (s since
                            the first record), timestamp (µs since 1970), direction, type,
                            then command / event / acl, l2cap, and att (as 'decode att
                            --json' prints it), smp or signaling.
          --filter <terms>  Print only some records (all are still decoded), comma-separated:
                              handle=0x0040   records about that connection (ACL data,
                                              and commands and events naming the handle)
                              hci-command, hci-event, le-meta, advertising, acl, l2cap,
                              att, smp, l2cap-signaling, sco, iso
                                              records carrying that layer
                            Layers are alternatives; a handle narrows them:
                            --filter att,smp,handle=0x0040

        Exits 0 on success, 1 if the file cannot be read (the system's reason is named:
        ENOENT, EISDIR, EACCES) or is not a valid capture (the record at fault is named),
        2 on a usage error.
        """

    static let info = """
        USAGE: swift-att info [--transport <transport>] [--btsnoop <file>] [--bonds <file>] [--json]
                              [--round-trips <n>]

        Opens a controller, runs swift-att's start-up sequence (reset, read version,
        supported commands and features, addresses and buffer sizes, set the event masks
        and the adapter's static random identity address) and prints what it learned.

        OPTIONS:
          --transport <t>   hci0 (default; or $SWIFT_ATT_TRANSPORT), serial:/dev/ttyUSB0[@BAUD][,rtscts],
                            tcp:HOST:PORT, tcp-server:HOST:PORT
          --btsnoop <file>  Write every HCI packet to a btsnoop capture (Wireshark, swift-att dump).
          --bonds <file>    The bond file holding the adapter's identity (made there on first
                            use); default $XDG_DATA_HOME/swift-att/bonds/bonds.json.
          --json            Print one JSON object instead.
          --round-trips <n> Then time n Read BD_ADDR commands and print the median round trip.

        Exits 0 on success, 1 if the bond file is not valid (its path and the JSON path at
        fault are named), 2 on a usage error, 3 if the controller or transport fails or
        another swift-att holds the bond file.
        """

    static let peripheral = """
        USAGE: swift-att peripheral <profile> [--transport <t>] [--name <name>] [--btsnoop <file>]
                                    [--bonds <file>] [--duration <seconds>] [--json] [<profile options>]
               swift-att peripheral --database <file.json> [--transport <t>] [--name <name>] ...

        Serves one of the built-in profiles, or a GATT database described in a JSON file, as
        a GATT peripheral, advertises it, and prints one line per event: connections, MTU
        changes, subscriptions, what is sent and what centrals write. Advertising resumes by
        itself after each connection and disconnection (up to 4 centrals at once). Runs
        until SIGINT or SIGTERM (centrals are disconnected and the controller released) or
        for --duration seconds. It advertises under the adapter's identity from the bond
        file, answers pairing (Just Works) and keeps the bonds there, so a bonded central
        encrypts again without pairing; with each bond it keeps the central's subscriptions
        and change-awareness, so the next run notifies it without it subscribing again (and
        indicates Service Changed when the database changed in between).

        PROFILES:
          heart-rate  A heart-rate monitor. Heart Rate service 180D: Measurement 2A37
                      (notify) from a simulated wearer (60-100 BPM, sensor contact,
                      RR-interval, energy expended every 10th), Body Sensor Location 2A38
                      (read: chest), Control Point 2A39 (write 01 resets energy expended;
                      any other value gets ATT error 0x80). --battery and
                      --device-information add those services, as on a real monitor.
          transfer    A chunked text transfer, as in Apple's BTLE Transfer sample. Service
                      E20A39F4-...: when a central subscribes to 08590F7E-... the text goes
                      out in chunks of ATT_MTU-3 bytes, one notification each (20 before an
                      MTU exchange, 244 at MTU 247), each sent once the last was accepted
                      (pausing while the transmit queue is full), then the end-of-message
                      marker "EOM".
          hc08        An HC-08 serial module: service FFE0, characteristic FFE1 (read, write
                      without response, notify): lines on standard input (when it is not a
                      terminal) are notified; what centrals write is printed as UTF-8.
          light       A Red Bear Labs BLE Shield driving lights, service 713D0000-...:
                      two-byte light commands written without response to its RX
                      characteristic 713D0003-... ([light, 00 off | 01 on]) are printed
                      decoded; its TX characteristic 713D0002-... notifies.
          battery     Battery service 180F: Battery Level 2A19 (read, notify; percent, with a
                      presentation format) drains one percent per --drain period; a number
                      on standard input (when it is not a terminal) sets it.
          device-information
                      Device Information 180A: Manufacturer Name 2A29, Model Number 2A24,
                      Serial Number 2A25, Hardware/Firmware/Software Revision 2A27/2A26/2A28,
                      System ID 2A23, PnP ID 2A50 (read).

        OPTIONS:
          --transport <t>     hci0 (default; or $SWIFT_ATT_TRANSPORT), serial:/dev/ttyUSB0[@BAUD][,rtscts],
                              tcp:HOST:PORT, tcp-server:HOST:PORT
          --name <name>       The advertised and GAP Device Name (defaults: "swift-att HRM",
                              "swift-att Transfer", "HC-08", "BLE Shield", "swift-att Battery",
                              "swift-att Device"; with --database, the file's "name").
          --database <file>   Serve the GATT database this JSON file describes (Documentation/
                              JSON.md; examples in Fixtures/gatt/). Writes are stored and
                              printed.
          --btsnoop <file>    Write every HCI packet to a btsnoop capture.
          --bonds <file>      The bond file: the adapter's identity and bonds (default
                              $XDG_DATA_HOME/swift-att/bonds/bonds.json; see 'swift-att bonds').
          --duration <s>      Stop after this many seconds.
          --json              Print one JSON object per event instead ({"event":"connected",...}).
          --text <text>       transfer: the text to send (default: a built-in paragraph).
          --file <path>       transfer: send this file's contents instead.
          --interval <ms>     heart-rate: time between measurements (default 1000).
          --uint16            heart-rate: write the heart rate as uint16 (flags bit 0 set).
          --battery           heart-rate: also serve the Battery service.
          --device-information
                              heart-rate: also serve the Device Information service.
          --level <percent>   battery: the level to start at (default 100).
          --drain <ms>        battery: time per percent drained (default 60000; 0 never drains).
          --manufacturer <s>, --model <s>, --serial <s>, --hardware-revision <s>,
          --firmware-revision <s>, --software-revision <s>
                              device-information: the strings (defaults "swift-att",
                              "swift-att peripheral", "0001", "1.0", and the tool's version
                              for both firmware and software); an empty string leaves the
                              characteristic out.
          --system-id <hex>   device-information: the 8 octets of System ID as sent.
          --pnp-id <id>       device-information: SOURCE:VENDOR:PRODUCT:VERSION, as in
                              usb:1d6b:0246:0100 or bluetooth:ffff:0001:0100.
          --io <cap>          What a central pairing with it may use: none (default: Just
                              Works), display, display-yesno, keyboard, keyboard-display.
          --passkey <nnnnnn>  Passkey Entry: the passkey shown (display) or typed (keyboard);
                              without it a displayed passkey is drawn at random and printed.
          --yes               Numeric Comparison: accept the number (printed) without asking.
          --privacy           Advertise from resolvable private addresses made from the bond
                              file's IRK, a new one every --privacy-timeout; bonded centrals
                              know it by its identity, nobody else can follow it.
          --privacy-timeout <s>
                              How long each private address is used (default 900, 1 to 3600).
          --eatt              Announce Enhanced ATT (Server Supported Features 2B3A = 01) and
                              accept Enhanced ATT bearers (L2CAP PSM 0x0027, MTU 517) from
                              centrals on an encrypted link: a central pairs first (--io).
          -h, --help          Show this help.

        EXAMPLES:
          swift-att peripheral heart-rate --battery --device-information --transport hci0
          swift-att peripheral transfer --text "Hello, central" --json
          tail -f arduino.log | swift-att peripheral hc08 --transport serial:/dev/ttyACM0@1000000
          swift-att peripheral battery --level 80 --drain 1000
          swift-att peripheral --database Fixtures/gatt/sensor.json
          swift-att peripheral --database Fixtures/gatt/sensor.json --io display --passkey 123456
          swift-att peripheral heart-rate --privacy --privacy-timeout 60
          swift-att peripheral --database Fixtures/gatt/sensor.json --eatt

        Exits 0 when stopped, 1 if --file or --database cannot be read or the database or
        bond file is not valid (its path and the JSON path at fault are named), 2 on a usage
        error, 3 if the controller or transport fails or another swift-att holds the bond
        file. A bond the bond file could not keep is reported as an error as it happens.
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
        case "central": Output.print(central)
        case "l2cap": Output.print(l2cap)
        case "adapters": Output.print(adapters)
        case "bonds": Output.print(bonds)
        case "bridge": Output.print(bridge)
        case "help": Output.print(main)
        case let other?: throw .usage("no help for unknown command '\(other)' (see 'swift-att --help')")
        }
        return 0
    }

    static let central = """
        USAGE: swift-att central scan [--service UUID[,UUID…]] [--name TEXT] [--rssi DBM] [--duplicates] [--passive]
               swift-att central discover <device>
               swift-att central read <device> <characteristic>
               swift-att central write <device> <characteristic> <hex> [--text] [--without-response|--signed]
               swift-att central subscribe <device> <characteristic> [--count N] [--duration SECONDS]
               swift-att central pair <device> [--io CAP] [--passkey NNNNNN] [--yes]
               swift-att central shell [<device>]
               swift-att central heart-rate|hc08|transfer [<device>]
               swift-att central light [<device>] <light>=on|off …

        The central role, as LightBlue or nRF Connect offer it. Every action but 'scan' scans
        for the device, connects and exchanges ATT_MTU; those that use the database discover it
        first. A value the device protects (Insufficient Encryption or Authentication) makes the
        central encrypt with its bond, or pair (LE Secure Connections where the device has it,
        as --io allows: Just Works by default), and try once more. The central connects under
        the adapter's identity from the bond file and keeps its bonds there: a bonded device's
        link is encrypted as soon as it connects, without pairing.

        <device>          An address (C0:B0:00:00:00:0A), or part of the advertised name
                          (case-insensitive). Without one, heart-rate, hc08, light and transfer
                          find a device advertising the service they work with.
        <characteristic>  A UUID (2A37, 713d0003-503e-4c75-ba94-3148f18d941e) or a value
                          handle (0x0012).

        ACTIONS:
          scan         A live table of advertisers: address, type, RSSI, name, services with
                       their names, manufacturer data. Runs --duration (default 10) seconds.
          discover     The database as a tree: services, characteristics with properties and
                       handles, descriptors, and every readable value, decoded where known.
          read         Reads a value (long values whole) and prints it, decoded where known.
          write        Writes hex (or --text) with a Write Request (long values with
                       Prepare/Execute Write), or --without-response with a Write Command.
          subscribe    Prints notifications or indications as they arrive, decoded for known
                       characteristics (Heart Rate Measurement, Battery Level…).
          pair         Pairs now (again, if bonded) and prints how: LE Secure Connections or
                       legacy, the association model, authenticated or not, the key size.
          shell        Interactive, with line editing, history and Tab completion on a
                       terminal; type 'help' for its commands, Ctrl-C cancels one.
          heart-rate   A heart-rate monitor (service 180D): resets its energy expended
                       (writes 01 to the Control Point 2A39) and reads the Body Sensor
                       Location 2A38 where it has them, then prints each measurement's BPM.
          hc08         An HC-08 serial module (service FFE0, characteristic FFE1): prints
                       what it reads and what arrives as text; sends lines of standard input
                       (and --send TEXT) with Write Without Response.
          light        A Red Bear Labs light shield (service 713D0000): writes two-octet
                       light commands (3=on, 2=off, or hex 0301) to its RX characteristic
                       713D0003 with Write Without Response.
          transfer     A chunked text transfer (Apple's BTLE Transfer sample): receives the
                       text, one notification per chunk, until the end-of-message marker
                       "EOM", and prints it.

        OPTIONS:
          --transport T     hci0 (default; or $SWIFT_ATT_TRANSPORT), serial:/dev/ttyUSB0@115200,
                            tcp:HOST:PORT.
          --service UUIDS   Only devices advertising one of these services.
          --name TEXT       Only devices whose advertised name contains TEXT.
          --rssi DBM        Only devices heard at DBM or stronger (e.g. -70).
          --timeout S       How long to scan for <device> (default 10 seconds).
          --duration S      scan: how long to scan; subscribe, heart-rate, hc08, transfer: how
                            long to listen.
          --count N         Stop after N devices (scan) or N values (subscribe, heart-rate…).
          --duplicates      scan: a row per advertising report, as CoreBluetooth's AllowDuplicates.
          --passive         Scan without scan requests.
          --text            write: the value is UTF-8 text, not hex.
          --without-response
                            write: with a Write Command (no response) instead of a Write Request.
          --signed          write: with a Signed Write Command, signed with the key given to a
                            bonded device (a Write Command when the link is encrypted).
          --send TEXT       hc08: a line to send first, as if typed on standard input.
          --no-pair         Report a device's refusal for want of security instead of pairing.
          --security LEVEL  Before the action, secure the link to LEVEL: encrypted (the bond's
                            key, or pairing), authenticated (a MITM-protected key: needs --io
                            other than none on one side), secure-connections (authenticated LE
                            Secure Connections, 16-octet key); open (default). gatttool's
                            --sec-level words low, medium, high and fips are accepted too.
          --io CAP          What this side can do when pairing: none (default: Just Works),
                            display, display-yesno, keyboard, keyboard-display.
          --passkey NNNNNN  Passkey Entry: the passkey the device shows (typed for you), or the
                            one to show. Without it, asked on the terminal ("Passkey:").
          --yes             Numeric Comparison: accept the number without asking. Without it,
                            asked on the terminal ("Does the device show 123456? [y/N]").
          --privacy         Scan and connect from resolvable private addresses made from the
                            bond file's IRK, a new one once --privacy-timeout has passed;
                            bonded devices know this side by its identity.
          --privacy-timeout S
                            How long each private address is used (default 900, 1 to 3600).
          --eatt [N]        Once connected, open N Enhanced ATT bearers (default 5, 1 to 32)
                            beside the unenhanced one, pairing first when the device wants
                            an encrypted link (as --io, --no-pair say); discover then reads
                            its values side by side, one per bearer. A device without
                            Enhanced ATT gets a warning and the action goes on over the one
                            bearer. N is the next word unless it is an option: give --eatt
                            after the device, or write --eatt=N.
          --json            One JSON object per line instead of text.
          --btsnoop FILE    Record every HCI packet to FILE (Wireshark, 'swift-att dump').
          --bonds FILE      The bond file: the adapter's identity and bonds (default
                            $XDG_DATA_HOME/swift-att/bonds/bonds.json; see 'swift-att bonds').
          -h, --help        Show this help.

        Progress goes to standard error; results to standard output. Exits 0 on success,
        1 on bad input (hex, an unknown characteristic, a bond file that is not valid), 2 on
        a usage error, 3 when the controller or transport fails or another swift-att holds
        the bond file, 4 when the device is not found, refuses (its ATT error is named) or
        disconnects.
        """

    static let l2cap = """
        USAGE: swift-att l2cap listen <psm> [--name NAME] [--security LEVEL] [<channel options>]
               swift-att l2cap connect <device> <psm> [--mode le|enhanced] [--timeout S] [<channel options>]
               swift-att l2cap listen <psm> --bench [--json]
               swift-att l2cap connect <device> <psm> --bench [BYTES] [--json]

        An L2CAP credit-based channel (LE Credit Based or Enhanced Credit Based) as a pipe:
        standard input goes into the channel, the peer's SDUs come out on standard output,
        byte for byte — netcat over Bluetooth LE. 'listen' advertises (connectable, --name)
        and waits for one central to open a channel to <psm>; 'connect' scans for <device>,
        connects and opens a channel to its <psm>. At the end of standard input the
        channel is flushed and closed (the peer then ends too); when the peer closes it,
        what it sent is written out and the command exits 0. A credit-based channel has no
        half-close: once one side closes, nothing more arrives, so a side that only
        receives takes --recv-only or keeps its standard input open. Progress goes to
        standard error; standard output carries only the channel's bytes.

        <psm>      The SPSM: 1 to 255, or 0x01 to 0xFF (0x80 to 0xFF are free for your own
                   services; below are the SIG's).
        <device>   An address (C0:B0:00:00:00:0A), or part of the advertised name.

        OPTIONS:
          --mtu N           The largest SDU this side receives (23 to 65535, 64 at least with
                            --mode enhanced; default 2048).
          --mps N           The largest K-frame payload this side receives (23 to 2048, 64 at
                            least with --mode enhanced; default 1024).
          --credits N       Credits granted to the peer: K-frames it may have in flight
                            (1 to 65535; default 64).
          --sdu N           The longest SDU this side sends (1 to 65535, at most the peer's
                            MTU, which is the default): a read of standard input per SDU.
          --recv-only       Do not read standard input: stay until the peer closes.
          --bench [BYTES]   connect: send BYTES (default 1M; K, M, G are powers of 1024) of a
                            pattern as fast as the peer's credits allow, wait until they have
                            left, then print octets, seconds, kB/s, SDUs, K-frames and credit
                            stalls. listen: read and drop, then print what arrived (timed
                            from the channel's opening to the last SDU).
          --json            --bench: print the report as one JSON object.
          --mode le|enhanced
                            connect: LE Credit Based (default; every LE stack since 4.1) or
                            Enhanced Credit Based (5.2). A listener takes both.
          --timeout S       connect: how long to scan for <device> (default 10 seconds).
          --name NAME       listen: the advertised and GAP Device Name (default "swift-att L2CAP").
          --security LEVEL  listen: what the link needs before a channel is accepted (open,
                            encrypted, authenticated, secure-connections); a central short
                            of it is refused with Insufficient Authentication or Encryption,
                            and pairs and asks again. connect: secure the link to LEVEL
                            first. gatttool's low, medium, high, fips are accepted too.
          --io CAP, --passkey NNNNNN, --yes
                            How this side pairs (see 'swift-att central --help'); no
                            question is asked on the terminal: standard input is data.
          --no-pair         connect: report a refusal for want of security instead of pairing.
          --transport T     hci0 (default; or $SWIFT_ATT_TRANSPORT), serial:/dev/ttyUSB0@115200,
                            tcp:HOST:PORT.
          --btsnoop FILE    Record every HCI packet to FILE.
          --bonds FILE      The bond file: the adapter's identity and bonds (default
                            $XDG_DATA_HOME/swift-att/bonds/bonds.json; see 'swift-att bonds').
          -h, --help        Show this help.

        EXAMPLES:
          swift-att l2cap listen 0x80 > received.bin
          swift-att l2cap connect "swift-att L2CAP" 0x80 < firmware.bin
          swift-att l2cap listen 0x80 --security encrypted --recv-only
          swift-att l2cap connect C0:B0:00:00:00:0A 0x80 --mode enhanced --mtu 4096 --credits 16
          swift-att l2cap listen 0x80 --bench
          swift-att l2cap connect "swift-att L2CAP" 0x80 --bench 10M --json

        SIGINT or SIGTERM closes the channel (what is queued goes first) and the link, and
        exits 0, as 'central' and 'peripheral' do when stopped. Exits 0 when the channel
        ended cleanly, 1 when standard input or output fails (EPIPE: the reader went away),
        2 on a usage error (before any radio work), 3 if the controller or transport fails
        or another swift-att holds the bond file, 4 when the device is not found, refuses
        the channel (its result is named: SPSM not supported, insufficient encryption…),
        disconnects, breaks the channel's rules, or closes a bench's channel before the
        end.
        """

    static let adapters = """
        USAGE: swift-att adapters [--json]

        Lists the kernel's Bluetooth adapters: name, public address, state, and who holds
        each — nobody (free to open with --transport hciN), bluetoothd (through the
        kernel's management interface), another program on the HCI user channel, or the
        kernel while it is still setting a new adapter up. Needs no privilege.

        OPTIONS:
          --json      Print a JSON array instead.
          -h, --help  Show this help.

        Exits 0 on success, 3 if the kernel has no Bluetooth support.
        """

    static let bonds = """
        USAGE: swift-att bonds [list] [--keys] [--json] [--bonds <file>]
               swift-att bonds remove <address> [--json] [--bonds <file>]
               swift-att bonds clear [--json] [--bonds <file>]

        What the bond file holds: per adapter (its public address, or the transport of a
        controller without one), the identity info, peripheral and central use on it — a
        static random address and an IRK, made on first use — and the devices bonded under
        it, with the keys each bond holds, whether pairing authenticated it, whether it
        used LE Secure Connections, and the key size. With each bond, what swift-att kept
        as it ran: the GATT server's state for the device (how many characteristics it
        subscribed to, whether it knows the database as it is now, a Service Changed
        indication still owed to it) and the signed-write counters (--json: `gatt` as the
        file holds it, `peerSignCounter`, `localSignCounter`). Removing a bond removes
        them too.

        ACTIONS:
          list        (the default) List the identities and bonds. Key values are printed
                      only with --keys. Reads the file without locking it, so it works
                      while a swift-att is using the file; creates nothing.
          remove      Forget the bond with <address> (its identity address, or a resolvable
                      private address its IRK resolves) on every adapter.
          clear       Forget every bond. The identities stay, so each adapter keeps its address.

        OPTIONS:
          --bonds <file>  The bond file (default $XDG_DATA_HOME/swift-att/bonds/bonds.json,
                          or ~/.local/share/swift-att/bonds/bonds.json).
          --keys          list: print the keys too (LTKs with EDIV and Rand, IRKs, CSRKs; 32
                          hex digits, most significant first).
          --json          Print one JSON object instead.
          -h, --help      Show this help.

        EXAMPLES:
          swift-att bonds
          swift-att bonds remove D1:22:33:44:55:66
          swift-att bonds list --json --bonds /var/lib/sensor/bonds.json

        Exits 0 on success, 1 if the file is not a valid bond file (its path and the JSON
        path at fault are named; the file is left as it is) or has no bond with <address>,
        2 on a usage error, 3 if another swift-att holds the file (remove, clear) or it
        cannot be written.
        """

    static let bridge = """
        USAGE: swift-att bridge <endpoint> <endpoint> [--quiet]

        Joins two HCI endpoints, forwarding every packet both ways until SIGINT or
        SIGTERM, or until one side closes. With vhci on one side the other side's
        controller becomes a kernel adapter (hci0, hci1...), as BlueZ's btattach does.

        ENDPOINTS:
          vhci[:PATH]             /dev/vhci (needs root and the hci_vhci module): creates
                                  a new kernel adapter whose controller is the other side.
          tcp:HOST:PORT           H4 over TCP, e.g. a Bumble virtual controller.
          tcp-server:HOST:PORT    H4 over TCP, waiting for one client.
          serial:/dev/ttyUSB0[@BAUD][,rtscts]
                                  H4 over a UART.
          h4:PATH                 H4 over any other character device that is not a
                                  terminal (a virtio-serial port such as /dev/vport0p1).
          hci0                    A kernel adapter on the HCI user channel.

        OPTIONS:
          --quiet     Print nothing but errors (otherwise: the endpoints, the adapter the
                      kernel created, and the packet counts at the end).
          -h, --help  Show this help.

        EXAMPLES:
          swift-att bridge vhci tcp:127.0.0.1:9000
          swift-att bridge vhci serial:/dev/ttyACM0@1000000,rtscts
          swift-att bridge hci0 tcp-server:127.0.0.1:9000

        Exits 0 when stopped by a signal, 2 on a usage error, 3 if an endpoint cannot be
        opened or fails (a closed connection included).
        """
}
