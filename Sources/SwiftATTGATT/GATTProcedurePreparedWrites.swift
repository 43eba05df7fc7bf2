import SwiftATTPDU

/// The Prepare Write / Execute Write exchange that long writes and reliable writes share
/// (Core 5.4 Vol 3 Part G §4.9.4–§4.9.5, Part F §3.4.6).
///
/// The values are cut into parts of at most ATT_MTU−5 octets; each part goes in a Prepare
/// Write Request, whose response echoes it. A reliable write compares the echo byte for
/// byte; a long write checks that it names the same handle and offset. After the last
/// echo, Execute Write (write) commits everything. An Error Response, or a wrong echo,
/// fails the procedure, and the procedure core first sends Execute Write (cancel) so the
/// server drops what was prepared.
struct GATTProcedurePreparedWrites: Sendable {
    struct Part: Sendable {
        let handle: UInt16
        let offset: UInt16
        let bytes: ArraySlice<UInt8>
    }

    let parts: [Part]
    let reliable: Bool
    /// Why the writes cannot be made: a value past 512 octets (Part F §3.2.9). There
    /// are no parts then.
    let refusal: GATTClientError?
    private var index = 0

    /// Parts for `writes` (handle, value, offset where the value goes) at `mtu`; at least
    /// one part per value, empty for an empty value. None when any write's offset plus
    /// length passes 512 octets.
    init(_ writes: [(handle: UInt16, value: [UInt8], offset: UInt16)], reliable: Bool, mtu: Int) {
        self.reliable = reliable
        let limit = ATTLimits.maximumAttributeValueLength
        if let long = writes.first(where: { Int($0.offset) + $0.value.count > limit }) {
            refusal = .valueTooLong(length: Int(long.offset) + long.value.count, maximum: limit)
            parts = []
            return
        }
        refusal = nil
        let size = mtu - 5
        var parts: [Part] = []
        for write in writes {
            var start = 0
            repeat {
                let end = min(start + size, write.value.count)
                parts.append(Part(handle: write.handle, offset: UInt16(Int(write.offset) + start), bytes: write.value[start..<end]))
                start = end
            } while start < write.value.count
        }
        self.parts = parts
    }

    /// Round trips: every part, then Execute Write.
    var roundTrips: Int { parts.count + 1 }

    /// The first request, or the refusal.
    func start<Output>() -> GATTProcedureStep<Output> {
        if let refusal { return .failed(refusal) }
        guard let first = parts.first else { return .request(Self.execute) }
        return .request(Self.prepare(first))
    }

    /// The step after an answer.
    mutating func advance<Output>(_ pdu: ATTPDU, done: Output) -> GATTProcedureStep<Output> {
        switch pdu {
        case let .prepareWriteResponse(echo):
            guard index < parts.count else { return .failed(.unexpectedResponse(pdu.opcode, request: .executeWriteRequest)) }
            let part = parts[index]
            if reliable {
                guard echo.handle == part.handle, echo.valueOffset == part.offset,
                      echo.partAttributeValue.elementsEqual(part.bytes) else {
                    return .failed(.reliableWriteEchoMismatch(handle: part.handle, offset: part.offset))
                }
            } else {
                guard echo.handle == part.handle, echo.valueOffset == part.offset else {
                    return .failed(.malformedResponse(.prepareWriteEchoMismatch(
                        handle: part.handle, offset: part.offset, echoedHandle: echo.handle, echoedOffset: echo.valueOffset)))
                }
            }
            index += 1
            return .request(index < parts.count ? Self.prepare(parts[index]) : Self.execute)
        case .executeWriteResponse:
            return .done(done)
        case let .errorResponse(error):
            return .failed(.attribute(error))
        default:
            return .failed(.unexpectedResponse(pdu.opcode, request: nil))
        }
    }

    private static func prepare(_ part: Part) -> ATTPDU {
        .prepareWriteRequest(PrepareWriteRequest(handle: part.handle, valueOffset: part.offset, partAttributeValue: part.bytes))
    }

    private static let execute = ATTPDU.executeWriteRequest(ExecuteWriteRequest(flags: .writeAll))
}
