/// A command's arguments split into positionals and the flags it knows.
///
/// Small on purpose: flags are boolean (`--json`), `-h`/`--help` is recognised everywhere,
/// `--` ends the flags, and a lone `-` is a positional (standard input).
struct Arguments {
    var positionals: [String] = []
    var flags: Set<String> = []
    var wantsHelp = false

    /// Splits `arguments`; any other `-x` or `--x` is a usage error naming `command`.
    init(_ arguments: [String], flags known: Set<String>, command: String) throws(CommandError) {
        var onlyPositionals = false
        for argument in arguments {
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
            } else if argument == "--" {
                onlyPositionals = true
            } else if argument == "-h" || argument == "--help" {
                wantsHelp = true
            } else if known.contains(argument) {
                flags.insert(argument)
            } else {
                throw .usage("unknown option '\(argument)' for '\(command)' (see 'swift-att \(command) --help')")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
