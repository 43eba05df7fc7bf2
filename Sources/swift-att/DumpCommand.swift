import SwiftATTHCI

/// `swift-att dump <file.btsnoop> [--json] [--filter <terms>]`: a capture decoded the way
/// btmon prints a live session (`DumpText`), or one JSON object per record
/// (`DumpJSON`). The file is streamed (`DumpCaptureStream`), each record decoded once
/// (`DumpDecoder`), filtered (`DumpFilter`) and written to a buffered standard output.
enum DumpCommand {
    static func run(_ arguments: [String]) throws(CommandError) -> Int32 {
        let args = try Arguments(arguments, flags: ["--json"], options: ["--filter"], command: "dump")
        if args.wantsHelp {
            Output.print(Usage.dump)
            return 0
        }
        guard args.positionals.count == 1, let path = args.positionals.first else {
            throw .usage("dump: expected one capture file (see 'swift-att dump --help')")
        }
        let filter = try DumpFilter(args.option("--filter"))
        let json = args.has("--json")
        let stream = try DumpCaptureStream(path: path)
        var decoder = DumpDecoder()
        var output = DumpOutput()
        var first: Int64?
        defer { output.flush() }
        while let record = try stream.next() {
            let start = first ?? record.timestamp
            first = start
            let dumped = decoder.decode(record, number: stream.number)
            guard filter.isEmpty || filter.matches(dumped) else { continue }
            let elapsed = record.timestamp - start
            if json {
                output.write(DumpJSON.object(dumped, elapsed: elapsed))
            } else {
                output.write(DumpText.text(dumped, elapsed: elapsed))
            }
        }
        return 0
    }
}
