import SwiftATTPDU
import Testing

/// ATTOpcode (Core 5.4 Vol 3 Part F §3.3.1, §3.4.8 Table 3.37) and ATTErrorCode
/// (§3.4.1.1 Table 3.4, Core Specification Supplement Part B §1.2).
@Suite("Opcodes and error codes")
struct OpcodeAndErrorCodeTests {
    /// Every defined opcode with the spec's name and kind, written out from Table 3.37.
    static let defined: [(UInt8, String, ATTOpcode.Kind)] = [
        (0x01, "Error Response", .response),
        (0x02, "Exchange MTU Request", .request),
        (0x03, "Exchange MTU Response", .response),
        (0x04, "Find Information Request", .request),
        (0x05, "Find Information Response", .response),
        (0x06, "Find By Type Value Request", .request),
        (0x07, "Find By Type Value Response", .response),
        (0x08, "Read By Type Request", .request),
        (0x09, "Read By Type Response", .response),
        (0x0A, "Read Request", .request),
        (0x0B, "Read Response", .response),
        (0x0C, "Read Blob Request", .request),
        (0x0D, "Read Blob Response", .response),
        (0x0E, "Read Multiple Request", .request),
        (0x0F, "Read Multiple Response", .response),
        (0x10, "Read By Group Type Request", .request),
        (0x11, "Read By Group Type Response", .response),
        (0x12, "Write Request", .request),
        (0x13, "Write Response", .response),
        (0x16, "Prepare Write Request", .request),
        (0x17, "Prepare Write Response", .response),
        (0x18, "Execute Write Request", .request),
        (0x19, "Execute Write Response", .response),
        (0x1B, "Handle Value Notification", .notification),
        (0x1D, "Handle Value Indication", .indication),
        (0x1E, "Handle Value Confirmation", .confirmation),
        (0x20, "Read Multiple Variable Request", .request),
        (0x21, "Read Multiple Variable Response", .response),
        (0x23, "Multiple Handle Value Notification", .notification),
        (0x52, "Write Command", .command),
        (0xD2, "Signed Write Command", .command),
    ]

    @Test("allDefined is the 31 opcodes of Core 5.4, in numeric order")
    func allDefinedOpcodes() {
        #expect(ATTOpcode.allDefined.map(\.rawValue) == Self.defined.map(\.0))
        #expect(ATTOpcode.allDefined.count == 31)
    }

    @Test("names and kinds of every defined opcode")
    func namesAndKinds() {
        for (raw, name, kind) in Self.defined {
            let op = ATTOpcode(raw)
            #expect(op.name == name)
            #expect(op.kind == kind, "\(name)")
            let hex = (raw < 0x10 ? "0x0" : "0x") + String(raw, radix: 16)
            #expect(op.description == "\(name) (\(hex))")
            #expect(ATTOpcode(rawValue: raw) == op)
        }
        #expect(ATTOpcode.readRequest.description == "Read Request (0x0a)")
        #expect(ATTOpcode.signedWriteCommand.description == "Signed Write Command (0xd2)")
    }

    @Test("the named constants have the spec's values")
    func namedConstants() {
        #expect(ATTOpcode.errorResponse.rawValue == 0x01)
        #expect(ATTOpcode.exchangeMTURequest.rawValue == 0x02)
        #expect(ATTOpcode.readByGroupTypeResponse.rawValue == 0x11)
        #expect(ATTOpcode.prepareWriteRequest.rawValue == 0x16)
        #expect(ATTOpcode.handleValueNotification.rawValue == 0x1B)
        #expect(ATTOpcode.readMultipleVariableRequest.rawValue == 0x20)
        #expect(ATTOpcode.multipleHandleValueNotification.rawValue == 0x23)
        #expect(ATTOpcode.writeCommand.rawValue == 0x52)
        #expect(ATTOpcode.signedWriteCommand.rawValue == 0xD2)
    }

    @Test("Write Command 0x52 and Signed Write Command 0xD2: method 0x12 with the flag bits")
    func commandAndSignatureBits() {
        let write = ATTOpcode.writeCommand
        #expect(write.method == 0x12)
        #expect(write.isCommand)
        #expect(!write.hasAuthenticationSignature)

        let signed = ATTOpcode.signedWriteCommand
        #expect(signed.method == 0x12)
        #expect(signed.isCommand)
        #expect(signed.hasAuthenticationSignature)

        // Same method as Write Request, which has neither flag.
        #expect(ATTOpcode.writeRequest.method == 0x12)
        #expect(!ATTOpcode.writeRequest.isCommand)
        #expect(!ATTOpcode.writeRequest.hasAuthenticationSignature)

        for op in ATTOpcode.allDefined where op != write && op != signed {
            #expect(!op.isCommand, "\(op)")
            #expect(!op.hasAuthenticationSignature, "\(op)")
            #expect(op.method == op.rawValue, "\(op)")
        }
    }

    @Test("undefined opcodes: no name, kind from the Command flag")
    func undefinedOpcodes() {
        let defined = Set(Self.defined.map(\.0))
        for raw in UInt8.min...UInt8.max where !defined.contains(raw) {
            let op = ATTOpcode(raw)
            #expect(op.name == nil)
            #expect(op.kind == (raw & 0x40 != 0 ? .command : .request), "0x\(String(raw, radix: 16))")
            #expect(op.description.hasPrefix("unknown opcode 0x"))
            #expect(op.method == raw & 0x3F)
        }
        #expect(ATTOpcode(0x3F).description == "unknown opcode 0x3f")
        #expect(ATTOpcode(0x00).description == "unknown opcode 0x00")
        #expect(ATTOpcode(0x14).kind == .request)
        #expect(ATTOpcode(0x7F).kind == .command)
        #expect(ATTOpcode(0x92).kind == .request, "signature bit alone is not a command")
    }

    // MARK: Error codes

    static let coreErrors: [(UInt8, String)] = [
        (0x01, "Invalid Handle"),
        (0x02, "Read Not Permitted"),
        (0x03, "Write Not Permitted"),
        (0x04, "Invalid PDU"),
        (0x05, "Insufficient Authentication"),
        (0x06, "Request Not Supported"),
        (0x07, "Invalid Offset"),
        (0x08, "Insufficient Authorization"),
        (0x09, "Prepare Queue Full"),
        (0x0A, "Attribute Not Found"),
        (0x0B, "Attribute Not Long"),
        (0x0C, "Encryption Key Size Too Short"),
        (0x0D, "Invalid Attribute Value Length"),
        (0x0E, "Unlikely Error"),
        (0x0F, "Insufficient Encryption"),
        (0x10, "Unsupported Group Type"),
        (0x11, "Insufficient Resources"),
        (0x12, "Database Out Of Sync"),
        (0x13, "Value Not Allowed"),
    ]

    @Test("core error codes 0x01–0x13: names and range")
    func coreErrorCodes() {
        for (raw, name) in Self.coreErrors {
            let code = ATTErrorCode(raw)
            #expect(code.name == name)
            #expect(code.range == .core)
            #expect(code.description == "\(name) (0x\(raw < 0x10 ? "0" : "")\(String(raw, radix: 16)))")
        }
        #expect(ATTErrorCode.invalidHandle.rawValue == 0x01)
        #expect(ATTErrorCode.attributeNotFound.rawValue == 0x0A)
        #expect(ATTErrorCode.insufficientEncryption.rawValue == 0x0F)
        #expect(ATTErrorCode.valueNotAllowed.rawValue == 0x13)
        #expect(ATTErrorCode.attributeNotFound.description == "Attribute Not Found (0x0a)")
    }

    @Test("application error codes 0x80–0x9F")
    func applicationErrorCodes() {
        for raw in UInt8(0x80)...0x9F {
            let code = ATTErrorCode(raw)
            #expect(code.range == .application)
            #expect(code.name == "Application Error 0x" + String(raw, radix: 16, uppercase: true))
        }
        #expect(ATTErrorCode(0x80).name == "Application Error 0x80")
        #expect(ATTErrorCode(0x9F).description == "Application Error 0x9F (0x9f)")
    }

    @Test("common profile and service error codes 0xE0–0xFF")
    func commonProfileErrorCodes() {
        #expect(ATTErrorCode(0xFC).name == "Write Request Rejected")
        #expect(ATTErrorCode(0xFD).name == "Client Characteristic Configuration Descriptor Improperly Configured")
        #expect(ATTErrorCode(0xFE).name == "Procedure Already in Progress")
        #expect(ATTErrorCode(0xFF).name == "Out of Range")
        #expect(ATTErrorCode.writeRequestRejected.rawValue == 0xFC)
        #expect(ATTErrorCode.cccdImproperlyConfigured.rawValue == 0xFD)
        #expect(ATTErrorCode.procedureAlreadyInProgress.rawValue == 0xFE)
        #expect(ATTErrorCode.outOfRange.rawValue == 0xFF)
        for raw in UInt8(0xE0)...0xFF {
            #expect(ATTErrorCode(raw).range == .commonProfile)
        }
        // 0xE0–0xFB are in the common profile range but not yet assigned.
        for raw in UInt8(0xE0)...0xFB {
            #expect(ATTErrorCode(raw).name == "Common Profile Error 0x" + String(raw, radix: 16, uppercase: true))
        }
    }

    @Test("reserved error codes: 0x00, 0x14–0x7F, 0xA0–0xDF")
    func reservedErrorCodes() {
        var reserved: [UInt8] = [0x00]
        reserved += Array(0x14...0x7F)
        reserved += Array(0xA0...0xDF)
        for raw in reserved {
            let code = ATTErrorCode(raw)
            #expect(code.range == .reserved, "0x\(String(raw, radix: 16))")
            let hex = String(raw, radix: 16, uppercase: true)
            #expect(code.name == "Reserved 0x" + (hex.count == 1 ? "0" : "") + hex)
        }
        #expect(ATTErrorCode(0x14).name == "Reserved 0x14")
        #expect(ATTErrorCode(0x00).name == "Reserved 0x00")
        #expect(ATTErrorCode(0x00).description == "Reserved 0x00 (0x00)")
        // Every octet falls in exactly one range.
        let counts = Dictionary(grouping: (UInt8.min...UInt8.max).map { ATTErrorCode($0).range }, by: { $0 }).mapValues(\.count)
        #expect(counts[.core] == 19)
        #expect(counts[.application] == 32)
        #expect(counts[.commonProfile] == 32)
        #expect(counts[.reserved] == 256 - 19 - 32 - 32)
    }
}
