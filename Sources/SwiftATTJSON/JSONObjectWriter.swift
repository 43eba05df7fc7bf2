/// One JSON object written member by member straight into UTF-8 bytes: the bytes
/// `JSONValue.object(…).serialized()` makes, without building the `JSONValue` first.
///
/// For a line written per event on a hot path: `swift-att peripheral transfer --json`
/// reports every notification it sends, and building the event's `JSONValue` (an array
/// of members, each key and value a boxed enum payload), freeing it and making a
/// `String` of its bytes cost more instructions than the host's work for the
/// notification.
///
/// The bytes go into raw memory the writer manages: a buffer on the stack with
/// `withLine` (the heap only if a line outgrows it), or one allocation with `init`. An
/// array was appended to piece by piece before, and `append(contentsOf:)` of a key's few
/// bytes cost some 100 instructions (uniqueness, capacity, a generic copy); a line cost
/// some 2,000 (callgrind, `peripheral transfer --json`).
///
/// Keys are literals and written as they are: a key must hold nothing JSON escapes (a
/// quote, a backslash, a control character), which every event's keys are.
///
///     JSONObjectWriter.withLine { line in
///         line.member("event", literal: "chunk")
///         line.member("index", 7)
///         line.finish { print(String(decoding: $0, as: UTF8.self)) }  // {"event":"chunk","index":7}
///     }
public struct JSONObjectWriter: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var count = 0
    /// `base` is the writer's own allocation (freed when it ends), not a caller's buffer.
    private var ownsStorage: Bool
    private var isFirst = true

    /// Starts an object in memory of its own; `capacity` bytes up front (an event line
    /// rarely needs more).
    public init(capacity: Int = 128) {
        let capacity = max(capacity, 1)
        base = .allocate(byteCount: capacity, alignment: 1)
        self.capacity = capacity
        ownsStorage = true
        append(UInt8(ascii: "{"))
    }

    /// Starts an object in `buffer`, which outlives the writer.
    @usableFromInline
    init(buffer: UnsafeMutableRawBufferPointer) {
        base = buffer.baseAddress!
        capacity = buffer.count
        ownsStorage = false
        append(UInt8(ascii: "{"))
    }

    deinit {
        if ownsStorage { base.deallocate() }
    }

    /// Calls `body` with a writer whose bytes start in `capacity` bytes on the stack: a
    /// line written and handed on (`finish(_:)`) inside `body` touches no heap.
    ///
    /// Inlinable, so that it is specialized for the caller's `R`: compiled generic, its
    /// `withUnsafeTemporaryAllocation` looked the metadata of a `Result<R, Never>` up at
    /// run time twice a line, some 700 instructions (callgrind, `peripheral transfer
    /// --json`, a line per notification), more than the line's own bytes.
    @inlinable
    public static func withLine<R>(capacity: Int = 256, _ body: (inout JSONObjectWriter) -> R) -> R {
        withUnsafeTemporaryAllocation(byteCount: max(capacity, 1), alignment: 1) { buffer in
            var writer = JSONObjectWriter(buffer: buffer)
            return body(&writer)
        }
    }

    /// `"key":"value"`, the string escaped as `JSONValue.serialized()` escapes it.
    public mutating func member(_ key: StaticString, _ value: String) {
        start(key)
        var escaped: [UInt8] = []
        JSONValue.writeString(value, to: &escaped)
        escaped.withUnsafeBytes { append($0) }
    }

    /// `"key":"value"` for a literal value, written as it is (an event's name): like
    /// keys, it must hold nothing JSON escapes. Saves scanning it for escapes each line.
    public mutating func member(_ key: StaticString, literal value: StaticString) {
        start(key)
        append(UInt8(ascii: "\""))
        appendLiteral(value)
        append(UInt8(ascii: "\""))
    }

    /// `"key":"…"` with the characters `write` appends in the quotes as they are: for
    /// a value spelled only in characters JSON does not escape.
    public mutating func member(_ key: StaticString, unescapedString write: (inout [UInt8]) -> Void) {
        var text: [UInt8] = []
        write(&text)
        text.withUnsafeBytes { bytes in
            member(key, unescapedCount: bytes.count) { $0.copyMemory(from: bytes) }
        }
    }

    /// `"key":"…"` with the `count` characters `write` fills in, in the quotes, as they
    /// are: for a value spelled only in characters JSON does not escape (hex digits,
    /// `Hex.write`), written into the line's own memory. `write` must fill all `count`.
    public mutating func member(_ key: StaticString, unescapedCount count: Int,
                                _ write: (UnsafeMutableRawBufferPointer) -> Void) {
        start(key)
        append(UInt8(ascii: "\""))
        reserve(count)
        write(UnsafeMutableRawBufferPointer(start: base + self.count, count: count))
        self.count += count
        append(UInt8(ascii: "\""))
    }

    /// `"key":123`.
    public mutating func member(_ key: StaticString, _ value: Int) {
        start(key)
        JSONValue.withIntegerText(value) { append($0) }
    }

    /// `"key":true`.
    public mutating func member(_ key: StaticString, _ value: Bool) {
        start(key)
        appendLiteral(value ? "true" : "false")
    }

    /// `"key":` and any value, serialized.
    public mutating func member(_ key: StaticString, _ value: JSONValue) {
        start(key)
        var serialized: [UInt8] = []
        value.write(to: &serialized)
        serialized.withUnsafeBytes { append($0) }
    }

    /// The object's bytes, closed: compact JSON on one line, without a newline. The
    /// writer then starts a new object.
    public mutating func finish() -> [UInt8] {
        finish { Array($0) }
    }

    /// Calls `body` with the object's bytes, closed, where they lie (valid only inside
    /// `body`); the writer then starts a new object in the same memory.
    public mutating func finish<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        append(UInt8(ascii: "}"))
        let result = body(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
        isFirst = true
        append(UInt8(ascii: "{"))
        return result
    }

    private mutating func start(_ key: StaticString) {
        reserve(key.utf8CodeUnitCount + 4)
        if isFirst {
            isFirst = false
        } else {
            store(UInt8(ascii: ","))
        }
        store(UInt8(ascii: "\""))
        appendLiteral(key)
        store(UInt8(ascii: "\""))
        store(UInt8(ascii: ":"))
    }

    /// A key's or literal value's bytes, unescaped (they need none: checked in debug).
    private mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { text in
            assert(!text.contains(where: JSONValue.needsEscape), "a JSON literal that needs escaping")
            append(UnsafeRawBufferPointer(text))
        }
    }

    private mutating func append(_ byte: UInt8) {
        reserve(1)
        store(byte)
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// One byte where room was reserved.
    @inline(__always)
    private mutating func store(_ byte: UInt8) {
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Room for `extra` more bytes: the memory doubles (moved to the heap) when short.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    private mutating func grow(toHold needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
        grown.copyMemory(from: base, byteCount: count)
        if ownsStorage { base.deallocate() }
        base = grown
        capacity = newCapacity
        ownsStorage = true
    }
}
