import SwiftATTPDU
import SwiftATTGATT

/// Exchange MTU (Core 5.4 Vol 3 Part G §4.3.1) as a procedure the link's queue can hold.
///
/// The bearer sends the request itself (it owns the once-per-connection rule and applies
/// the new ATT_MTU), so the session recognises this procedure's request by its opcode and
/// hands it to `ATTBearer.exchangeMTU`. The output is the server's Rx MTU; an Error
/// Response (a server that does not support the exchange) leaves ATT_MTU at its value
/// and is reported as such.
struct MTUExchange: GATTProcedure {
    typealias Output = UInt16

    let mtu: Int
    let receiveMTU: UInt16
    private var started = false

    init(receiveMTU: UInt16, mtu: Int) {
        self.receiveMTU = receiveMTU
        self.mtu = mtu
    }

    mutating func start() -> Step {
        started = true
        return .request(.exchangeMTURequest(ExchangeMTURequest(clientRxMTU: receiveMTU)))
    }

    mutating func receive(_ response: ATTPDU) -> Step {
        switch response {
        case let .exchangeMTUResponse(answer):
            return .done(answer.serverRxMTU)
        case let .errorResponse(error):
            return .failed(.attributeError(error.errorCode, handle: error.handle, request: error.requestOpcode))
        default:
            return .failed(.unexpectedResponse(response.opcode, request: .exchangeMTURequest))
        }
    }

    mutating func cancel() -> Step? {
        started ? nil : .failed(.cancelled)
    }

    /// The bearer refuses a second exchange (`mtuAlreadyExchanged`), or is closed.
    mutating func refused(_ error: GATTClientError) -> Step {
        .failed(error)
    }
}
