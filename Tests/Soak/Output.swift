#if canImport(Glibc)
import Glibc
#endif

/// Prints one JSON line and flushes it, so the script reading the file sees it at once.
func emit(_ line: String) {
    print(line)
    fflush(nil)  // every stream: `stdout` is a C global Swift 6 will not touch
}

/// `text` as a JSON string literal.
func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case _ where scalar.value < 0x20: out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// A list of strings as a JSON array.
func quoted(_ texts: [String]) -> String {
    "[" + texts.map(quoted).joined(separator: ",") + "]"
}
