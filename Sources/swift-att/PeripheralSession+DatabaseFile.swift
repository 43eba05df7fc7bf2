import SwiftATTJSON
import SwiftATTCore
import SwiftATTDatabaseFile
import SwiftATTGATT

// A --database file's writes.
extension PeripheralSession {
    /// --database: a central wrote a value; the server has stored it.
    func fileWritten(_ write: DatabaseFile.Write) {
        let target = write.descriptor.map { "descriptor \(report.describe($0)) of " } ?? ""
        // The value as text too when it is printable UTF-8 (a label, a command word).
        let text: String? = String(validating: write.value, as: UTF8.self).flatMap { s in
            !s.isEmpty && s.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } ? s : nil
        }
        let shown = write.value.isEmpty ? "empty value" : Hex.encode(write.value, separator: " ") + (text.map { " \(EventReport.quoted($0))" } ?? "")
        report.emit(
            "written \(target)\(report.describe(write.characteristic)): \(shown) (\(EventReport.bytes(write.value.count)), \(Self.name(of: write.kind)))",
            ["event": "written", "uuid": .string(write.characteristic.description),
             "name": report.name(of: write.characteristic).map { .string($0) } ?? .null,
             "descriptor": write.descriptor.map { .string($0.description) } ?? .null,
             "handle": .integer(Int(write.handle)), "value": .string(Hex.encode(write.value)),
             "text": text.map { .string($0) } ?? .null, "kind": .string(Self.name(of: write.kind))])
    }

    static func name(of kind: GATTWriteContext.Kind) -> String {
        switch kind {
        case .request: return "write request"
        case .command: return "write command"
        case .signedCommand: return "signed write command"
        case .queued: return "queued write"
        }
    }
}
