import SwiftATTJSON
import SwiftATTCore

/// How `swift-att peripheral` and `swift-att central` tell what happens: one line per
/// event, for people or (with `--json`) as one JSON object per line whose "event" names
/// it. Each line is flushed at once, so a pipe reader sees events as they happen — but
/// for a burst (`emitInBurst`), which its caller flushes once at its end.
struct EventReport {
    let json: Bool
    /// Names for the profile's own UUIDs; SIG names cover the rest.
    let names: [BluetoothUUID: String]

    func emit(_ text: @autoclosure () -> String, _ object: @autoclosure () -> JSONValue) {
        emitInBurst(text(), object())
        Output.flush()
    }

    /// One event of a burst the caller ends with `Output.flush()`: a transfer reports
    /// each chunk, and a system call per line cost as much as sending the chunk (on the
    /// kernel bench's emulated CPU, a tenth of the notification rate).
    func emitInBurst(_ text: @autoclosure () -> String, _ object: @autoclosure () -> JSONValue) {
        Output.print(json ? object().serialized() : text())
    }

    /// `emitInBurst` for an event written member by member (`JSONObjectWriter`), not
    /// built as a `JSONValue` first: a transfer's chunk, reported per notification.
    func emitInBurst(_ text: @autoclosure () -> String, members: (inout JSONObjectWriter) -> Void) {
        guard json else { return Output.print(text()) }
        // Written on the stack and handed to standard output's buffer from there.
        JSONObjectWriter.withLine { line in
            members(&line)
            line.finish { Output.printLine($0) }
        }
    }

    /// `2A37 Heart Rate Measurement`, `FFE1 HC-08 Data`, or the UUID alone.
    func describe(_ uuid: BluetoothUUID) -> String {
        name(of: uuid).map { "\(uuid) \($0)" } ?? uuid.description
    }

    func name(of uuid: BluetoothUUID) -> String? {
        names[uuid] ?? uuid.assignedName
    }

    /// Text in double quotes on one line: quotes, backslashes and control characters
    /// escaped as Swift writes them.
    static func quoted(_ text: String) -> String {
        // Most text needs no escape: one append (a transfer quotes every chunk).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `1 byte`, `20 bytes`.
    static func bytes(_ count: Int) -> String { String(count: count, "byte") }
}
