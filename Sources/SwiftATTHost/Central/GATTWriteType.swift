/// How a characteristic value is written, as CoreBluetooth's `CBCharacteristicWriteType`
/// names it.
public enum GATTWriteType: Sendable, Hashable {
    /// Write Characteristic Value (Core 5.4 Vol 3 Part G §4.9.3), or Write Long
    /// Characteristic Values (§4.9.4) when the value does not fit ATT_MTU−3: the server
    /// answers, and a refusal is thrown.
    case withResponse
    /// Write Without Response (§4.9.1): a Write Command, which the server never answers.
    /// The call returns once the command is handed to the controller; it waits while the
    /// link's transmit queue is full, which is the back-pressure a stream of commands needs.
    case withoutResponse
    /// Signed Write Without Response (§4.9.2): a Signed Write Command, signed with the CSRK
    /// this device gave the peer when they bonded, for a characteristic that allows
    /// authenticated signed writes; the server checks the signature and never answers.
    /// On an encrypted link a plain Write Command goes instead, as §4.9.2 says. Throws
    /// `notSupported` when there is no bond with such a key.
    case signedWithoutResponse
}
