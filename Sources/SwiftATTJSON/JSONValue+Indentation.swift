extension JSONValue {
    /// Indented JSON, for files people read and `diff`: each member or element on a line
    /// of its own, `indent` spaces deeper per level, `": "` after a key; an empty array
    /// or object stays `[]` or `{}`. No newline at the end. Scalars and strings are
    /// written as `serialized()` writes them, so both forms parse to the same value.
    public func serialized(indent: Int) -> String {
        var out = ""
        write(to: &out, indent: max(0, indent), depth: 0)
        return out
    }

    private func write(to out: inout String, indent: Int, depth: Int) {
        let inner = String(repeating: " ", count: indent * (depth + 1))
        let outer = String(repeating: " ", count: indent * depth)
        switch self {
        case let .array(elements) where !elements.isEmpty:
            out += "[\n"
            for (i, element) in elements.enumerated() {
                out += inner
                element.write(to: &out, indent: indent, depth: depth + 1)
                out += i == elements.count - 1 ? "\n" : ",\n"
            }
            out += outer + "]"
        case let .object(members) where !members.isEmpty:
            out += "{\n"
            for (i, member) in members.enumerated() {
                out += inner + JSONValue.string(member.key).serialized() + ": "
                member.value.write(to: &out, indent: indent, depth: depth + 1)
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += outer + "}"
        default:
            out += serialized()
        }
    }
}
