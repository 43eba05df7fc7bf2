/// A command's arguments split into positionals, the flags it knows and its options.
///
/// Small on purpose: flags are boolean (`--json`), options take one value
/// (`--transport hci0` or `--transport=hci0`), `-h`/`--help` is recognised everywhere,
/// `--` ends the flags, and a lone `-` is a positional (standard input). An option whose
/// value may be left out (`--eatt [N]`) takes the next argument unless there is none or
/// it is another option (`--…`, `-h`); left out, it counts as a flag.
struct Arguments {
    var positionals: [String] = []
    var flags: Set<String> = []
    var options: [String: String] = [:]
    var wantsHelp = false

    /// Splits `arguments`; any other `-x` or `--x` is a usage error naming `command`.
    init(_ arguments: [String], flags known: Set<String>, options knownOptions: Set<String> = [],
         optionalValues: Set<String> = [], command: String) throws(CommandError) {
        let knownOptions = knownOptions.union(optionalValues)
        var onlyPositionals = false
        var pendingOption: String?
        for argument in arguments {
            if let option = pendingOption, optionalValues.contains(option), argument.hasPrefix("--") || argument == "-h" {
                flags.insert(option)
                pendingOption = nil
            }
            if let option = pendingOption {
                options[option] = argument
                pendingOption = nil
            } else if !onlyPositionals, let equals = argument.firstIndex(of: "="), argument.hasPrefix("--"),
                      knownOptions.contains(String(argument[..<equals])) {
                options[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
            } else if !onlyPositionals, knownOptions.contains(argument) {
                pendingOption = argument
            } else if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
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
        if let option = pendingOption, optionalValues.contains(option) {
            flags.insert(option)
        } else if let option = pendingOption {
            throw .usage("\(command): \(option) needs a value (see 'swift-att \(command) --help')")
        }
    }

    func option(_ name: String) -> String? { options[name] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
