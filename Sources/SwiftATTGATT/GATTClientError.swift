import SwiftATTPDU

/// Why a GATT client procedure failed or was refused.
///
/// Procedures fail with the server's Error Response (`attributeError`), with a response
/// that is not the one asked for (`unexpectedResponse`) or that breaks the spec
/// (`malformedResponse`: a server answering wrong never makes a procedure loop or trap),
/// or refuse what cannot be done (`valueTooLong`, `tooManyHandles`, `notSupported`,
/// `invalidHandleRange`). The host adds what only it can see: `timedOut`,
/// `disconnected`, `cancelled`, and the bearer's other refusals (`bearer`), usually by
/// converting an `ATTBearerError` with `init(_:)`.
public enum GATTClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server answered `request` with an Error Response (Core 5.4 Vol 3 Part F
    /// §3.4.1.1) naming `handle`.
    case attributeError(ATTErrorCode, handle: UInt16, request: ATTOpcode)
    /// The server answered with a PDU that does not answer `request` (`nil`: the
    /// procedure had no request outstanding).
    case unexpectedResponse(ATTOpcode, request: ATTOpcode?)
    /// The answer has the right opcode but breaks the spec.
    case malformedResponse(Malformation)
    /// A value longer than the procedure can carry: `maximum` is ATT_MTU−3 for a Write
    /// Request or Command, ATT_MTU−1 for a Read Multiple's values together, 512 for a
    /// long or reliable write (Part F §3.2.9).
    case valueTooLong(length: Int, maximum: Int)
    /// More handles than one Read Multiple (Variable) Request holds at this ATT_MTU.
    case tooManyHandles(count: Int, maximum: Int)
    /// A Prepare Write Response of a reliable write did not echo the part sent, byte for
    /// byte (Part G §4.9.5). The prepared writes were cancelled; nothing was written.
    case reliableWriteEchoMismatch(handle: UInt16, offset: UInt16)
    /// Something this client cannot do (yet), and what to do instead.
    case notSupported(String)
    /// A handle range that names no attributes: it starts at 0x0000.
    case invalidHandleRange(ClosedRange<UInt16>)
    /// The server did not answer within the ATT transaction timeout; the bearer is closed
    /// (Part F §3.3.3).
    case timedOut
    /// The link went down before the procedure finished.
    case disconnected(ATTBearerError.DisconnectReason)
    /// The procedure was cancelled before it finished.
    case cancelled
    /// The bearer refused a request (`queueFull`, `pduTooLong`, …).
    case bearer(ATTBearerError)
    /// The server refused the request for want of security (`code`: Insufficient
    /// Authentication, Insufficient Encryption, Encryption Key Size Too Short) and the
    /// host's attempt to encrypt or pair failed: `reason` says why.
    case securityFailed(ATTErrorCode, reason: String)

    /// How a response breaks the spec.
    public enum Malformation: Hashable, Sendable, CustomStringConvertible {
        /// The PDU does not decode.
        case undecodable(ATTDecodingError)
        /// A list response with no entries.
        case emptyList(ATTOpcode)
        /// An entry's handle is below where the request started or repeats or goes back
        /// past an earlier entry: continuing would loop.
        case handleOutOfOrder(ATTOpcode, handle: UInt16, expectedAtLeast: UInt16)
        /// An entry's handle is outside the range the request named.
        case handleOutsideRange(ATTOpcode, handle: UInt16, range: ClosedRange<UInt16>)
        /// A group (service, included service, Service Changed range) that ends before it
        /// starts, or starts at 0x0000.
        case invalidGroup(ATTOpcode, start: UInt16, end: UInt16)
        /// A declaration or value whose length the spec does not allow.
        case invalidValueLength(ATTOpcode, handle: UInt16, length: Int, expected: [Int])
        /// A Read Multiple Response whose length is not the sum of the values' lengths.
        case lengthMismatch(ATTOpcode, expected: Int, found: Int)
        /// More values than handles asked for.
        case tooManyValues(ATTOpcode, expected: Int, found: Int)
        /// A long read that went past the 512-octet attribute limit (Part F §3.2.9).
        case valueExceedsLimit(handle: UInt16, length: Int)
        /// A Prepare Write Response for another handle or offset than the request's.
        case prepareWriteEchoMismatch(handle: UInt16, offset: UInt16, echoedHandle: UInt16, echoedOffset: UInt16)
        /// The server kept answering past every bound the procedure can need.
        case tooManyRoundTrips(limit: Int)

        public var description: String {
            switch self {
            case let .undecodable(error):
                return "\(error)"
            case let .emptyList(opcode):
                return "\(Self.name(opcode)) lists no entries"
            case let .handleOutOfOrder(opcode, handle, expected):
                return "\(Self.name(opcode)) lists handle \(Hex.handle(handle)) where handles must be "
                    + "\(Hex.handle(expected)) or later: entries must ascend"
            case let .handleOutsideRange(opcode, handle, range):
                return "\(Self.name(opcode)) lists handle \(Hex.handle(handle)) outside the requested "
                    + "\(Hex.handle(range.lowerBound))–\(Hex.handle(range.upperBound))"
            case let .invalidGroup(opcode, start, end):
                return "\(Self.name(opcode)) gives the handle range \(Hex.handle(start))–\(Hex.handle(end)), "
                    + "which is empty or starts at 0x0000"
            case let .invalidValueLength(opcode, handle, length, expected):
                let allowed = expected.map(String.init).joined(separator: " or ")
                return "\(Self.name(opcode)) has a \(length)-octet value at \(Hex.handle(handle)); "
                    + "the spec allows \(allowed)"
            case let .lengthMismatch(opcode, expected, found):
                return "\(Self.name(opcode)) holds \(found) octets; the values asked for add up to \(expected)"
            case let .tooManyValues(opcode, expected, found):
                return "\(Self.name(opcode)) holds \(found) values for \(expected) handles"
            case let .valueExceedsLimit(handle, length):
                return "the value at \(Hex.handle(handle)) reached \(length) octets, past the 512-octet "
                    + "attribute limit (Core 5.4 Vol 3 Part F §3.2.9)"
            case let .prepareWriteEchoMismatch(handle, offset, echoedHandle, echoedOffset):
                return "the Prepare Write Response echoes handle \(Hex.handle(echoedHandle)) offset "
                    + "\(echoedOffset) for a part sent to \(Hex.handle(handle)) offset \(offset)"
            case let .tooManyRoundTrips(limit):
                return "the server kept the procedure going past \(limit) requests, more than its database can need"
            }
        }

        private static func name(_ opcode: ATTOpcode) -> String { opcode.name ?? opcode.description }
    }

    /// The client error for a bearer's failure of a request: a timeout (or the bearer
    /// closed after one) is `timedOut`, a disconnection `disconnected`, an answer that
    /// does not decode `malformedResponse`; anything else is carried as `bearer`.
    public init(_ error: ATTBearerError) {
        switch error {
        case .timedOut, .bearerClosed: self = .timedOut
        case let .disconnected(reason): self = .disconnected(reason)
        case let .malformedResponse(decoding): self = .malformedResponse(.undecodable(decoding))
        default: self = .bearer(error)
        }
    }

    /// The error an Error Response stands for.
    static func attribute(_ response: ErrorResponse) -> GATTClientError {
        .attributeError(response.errorCode, handle: response.handle, request: response.requestOpcode)
    }

    public var description: String {
        switch self {
        case let .attributeError(code, handle, request):
            let subject = handle == 0 ? "" : " for handle \(Hex.handle(handle))"
            let advice = Self.advice(code)
            return "the peer refused \(request.name ?? request.description)\(subject): \(code)"
                + (advice.isEmpty ? "" : "; \(advice)")
        case let .unexpectedResponse(opcode, request?):
            return "the peer answered \(request.name ?? request.description) with "
                + "\(opcode.name ?? opcode.description), which does not answer it (Core 5.4 Vol 3 Part F §3.4.9)"
        case let .unexpectedResponse(opcode, nil):
            return "\(opcode.name ?? opcode.description) arrived with no request of this procedure outstanding"
        case let .malformedResponse(malformation):
            return "the peer's answer breaks the spec: \(malformation); the peer's GATT server is faulty"
        case let .valueTooLong(length, maximum):
            return "the value is \(length) octets; at most \(maximum) fit"
                + (maximum < ATTLimits.maximumAttributeValueLength
                    ? ": use Write Long Characteristic Values, or exchange a larger ATT_MTU" : "")
        case let .tooManyHandles(count, maximum):
            return "\(count) handles do not fit one request at this ATT_MTU (at most \(maximum)): "
                + "read them in several requests"
        case let .reliableWriteEchoMismatch(handle, offset):
            return "the peer echoed the reliable write part for \(Hex.handle(handle)) at offset \(offset) "
                + "wrongly, so the writes were cancelled and nothing was written (Core 5.4 Vol 3 Part G §4.9.5): retry"
        case let .notSupported(what):
            return what
        case let .invalidHandleRange(range):
            return "the handle range \(Hex.handle(range.lowerBound))–\(Hex.handle(range.upperBound)) "
                + "is invalid: handles start at 0x0001"
        case .timedOut:
            return "the peer did not answer within the ATT transaction timeout (Core 5.4 Vol 3 Part F §3.3.3); "
                + "the ATT bearer is closed: disconnect and reconnect"
        case let .disconnected(reason):
            return "the connection closed (\(reason)) before the procedure finished: connect again"
        case .cancelled:
            return "the procedure was cancelled"
        case let .bearer(error):
            return "\(error)"
        case let .securityFailed(code, reason):
            return "the peer requires more security (\(code)), and securing the link failed: \(reason)"
        }
    }

    /// What a user can do about an error code, where there is something.
    private static func advice(_ code: ATTErrorCode) -> String {
        switch code {
        case .invalidHandle: return "the handle names no attribute: the database may have changed, discover it again"
        case .readNotPermitted: return "the attribute cannot be read"
        case .writeNotPermitted: return "the attribute cannot be written"
        case .insufficientAuthentication: return "pair with MITM protection (authenticated pairing), then retry"
        case .insufficientAuthorization: return "the peer's application must authorize this client first"
        case .insufficientEncryption: return "encrypt the link (pair, or use the existing bond), then retry"
        case .encryptionKeySizeTooShort: return "pair again with a longer (16-octet) encryption key"
        case .invalidAttributeValueLength: return "write a value of the length the attribute takes"
        case .invalidOffset: return "the offset is past the end of the value"
        case .prepareQueueFull: return "the peer's prepare queue is full: write fewer or shorter values at once"
        case .requestNotSupported: return "the peer does not support this procedure"
        case .databaseOutOfSync: return "the peer's database changed: check the Database Hash or discover again"
        case .valueNotAllowed: return "the peer does not accept this value"
        case .cccdImproperlyConfigured: return "enable notifications or indications first"
        case .procedureAlreadyInProgress: return "wait for the peer's running procedure to finish"
        case .outOfRange: return "the value is outside the range the peer accepts"
        default:
            return code.range == .application ? "the peer's application refused: see its documentation" : ""
        }
    }
}
