/// One JSON object written member by member straight into UTF-8 bytes: the bytes
/// `JSONValue.object(…).serialized()` makes, without building the `JSONValue` first.
///
/// For a line written per event on a hot path: `swift-att peripheral transfer --json`
/// reports every notification it sends, and building the event's `JSONValue` (an array
/// of members, each key and value a boxed enum payload), freeing it and making a
/// `String` of its bytes cost more instructions than the host's work for the
/// notification.
///
/// Keys are literals and written as they are: a key must hold nothing JSON escapes (a
/// quote, a backslash, a control character), which every event's keys are.
///
///     var line = JSONObjectWriter()
///     line.member("event", "chunk")
///     line.member("index", 7)
///     print(String(decoding: line.finish(), as: UTF8.self))   // {"event":"chunk","index":7}
public struct JSONObjectWriter {
    private var bytes: [UInt8] = []
    private var isFirst = true

    /// Starts an object; `capacity` bytes are reserved up front (an event line rarely
    /// needs more than one allocation).
    public init(capacity: Int = 128) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// `"key":"value"`, the string escaped as `JSONValue.serialized()` escapes it.
    public mutating func member(_ key: StaticString, _ value: String) {
        start(key)
        JSONValue.writeString(value, to: &bytes)
    }

    /// `"key":"value"` for a literal value, written as it is (an event's name): like
    /// keys, it must hold nothing JSON escapes. Saves scanning it for escapes each line.
    public mutating func member(_ key: StaticString, literal value: StaticString) {
        start(key)
        bytes.append(UInt8(ascii: "\""))
        appendLiteral(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"key":"…"` with the characters `write` appends in the quotes as they are: for
    /// a value spelled only in characters JSON does not escape (hex digits), written
    /// without an intermediate `String`.
    public mutating func member(_ key: StaticString, unescapedString write: (inout [UInt8]) -> Void) {
        start(key)
        bytes.append(UInt8(ascii: "\""))
        write(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"key":123`.
    public mutating func member(_ key: StaticString, _ value: Int) {
        start(key)
        JSONValue.writeInteger(value, to: &bytes)
    }

    /// `"key":true`.
    public mutating func member(_ key: StaticString, _ value: Bool) {
        start(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// `"key":` and any value, serialized.
    public mutating func member(_ key: StaticString, _ value: JSONValue) {
        start(key)
        value.write(to: &bytes)
    }

    /// The object's bytes, closed: compact JSON on one line, without a newline.
    public consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func start(_ key: StaticString) {
        if isFirst {
            isFirst = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(UInt8(ascii: "\""))
        appendLiteral(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A key's or literal value's bytes, unescaped (they need none: checked in debug).
    private mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { text in
            assert(!text.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }, "a JSON literal that needs escaping")
            bytes.append(contentsOf: text)
        }
    }
}
