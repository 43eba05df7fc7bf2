import SwiftATTCore
import SwiftATTSMP
import SwiftATTSecurity

/// Target `smp`: the Security Manager's pairing machine, `PairingSession`, in both roles
/// and with its crypto, driven the way a host drives it: PDUs from the peer, the user's
/// answers, the controller's encryption events, the clock and the link dropping.
///
/// Input: a header octet, then one `SMPFuzzConfiguration` (four octets) per session,
/// then a script of steps.
///
///     header  bit 0: mode. 0: one session, the fuzzer plays its peer, user and
///             controller (`SMPFuzzSingleSession`); 1: two sessions paired through a
///             man in the middle the fuzzer steers (`SMPFuzzManInTheMiddle`).
///             bit 1: the single session is the responder (else the initiator).
///             bit 2: the initiator's address is public (else static random).
///             bit 3: with a man in the middle, both sessions hold the same key pair.
///
/// The checks are `SMPFuzzWatchedSession`'s on every session, and, with a man in the
/// middle, the two ends' agreement: both completed means the same LTK, method, key
/// size and keys; a run the fuzzer did not disturb ends the same way on both sides.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let header = input.byte() ?? 0
    let addresses = SMPFuzzMaterial.addresses(initiatorIsPublic: header & 0b100 != 0)
    if header & 1 == 0 {
        var single = SMPFuzzSingleSession(role: header & 0b10 == 0 ? .initiator : .responder,
                                          addresses: addresses, input: &input)
        single.run(&input)
    } else {
        var mitm = SMPFuzzManInTheMiddle(addresses: addresses, sameKeys: header & 0b1000 != 0, input: &input)
        mitm.run(&input)
    }
    return 0
}

/// One session against a peer the fuzzer writes: every step an octet, `op mod 11`:
///
///     0  a record, received as the peer's PDU (any bytes: the decoder's errors too)
///     1  a well-formed PDU built from the input (`SMPFuzzMaterial.pdu`)
///     2  start (the initiator sends its Pairing Request)
///     3  the application accepts or refuses the Pairing Request (next octet, bit 0)
///     4  the user confirms or rejects the number (next octet, bit 0)
///     5  the user types a passkey (`SMPFuzzMaterial.passkey`: cancelled, valid, too big)
///     6  Encryption Change with a status (next octet: below 0x80 success, else itself)
///     7  an LE Long Term Key Request (next octet 0: EDIV and Rand zero; else both read)
///     8  time passes (next octet, in seconds), then the timer is checked
///     9  the link drops
///     10 the session's own last PDU comes back (a reflecting peer)
///
/// The peer cannot compute confirm values, so this mode stays in phases 1 and 2: it is
/// where wrong orders, wrong lengths, bad keys and stray answers are tried.
/// `SMPFuzzManInTheMiddle` goes deeper.
struct SMPFuzzSingleSession {
    var watched: SMPFuzzWatchedSession
    var now = MonotonicInstant.now

    init(role: PairingRole, addresses: (initiator: BluetoothAddress, responder: BluetoothAddress),
         input: inout FuzzInput) {
        let octets = SMPFuzzConfiguration(&input)
        var outOfBand: OutOfBandData?
        if octets.givesOutOfBand || octets.holdsPeerOutOfBand {
            let peer = octets.peerOutOfBandCorrupted
                ? SMPFuzzMaterial.corrupted(SMPFuzzMaterial.peerOutOfBand) : SMPFuzzMaterial.peerOutOfBand
            outOfBand = OutOfBandData(local: octets.givesOutOfBand ? SMPFuzzMaterial.localOutOfBand : nil,
                                      peer: octets.holdsPeerOutOfBand ? peer : nil)
        }
        watched = SMPFuzzWatchedSession(PairingSession(
            role: role, configuration: octets.configuration(outOfBand: outOfBand),
            initiatorAddress: addresses.initiator, responderAddress: addresses.responder,
            keyPair: SMPFuzzMaterial.local))
    }

    mutating func run(_ input: inout FuzzInput) {
        while let op = input.byte() {
            switch op % 11 {
            case 0:
                guard let record = input.record() else { return }
                _ = watched.receive(offsetSlice(record), now: now)
            case 1:
                let pdu = SMPFuzzMaterial.pdu(&input)
                _ = watched.receive(offsetSlice(pdu.bytes), now: now)
            case 2:
                _ = watched.start(now: now)
            case 3:
                _ = watched.accept((input.byte() ?? 1) & 1 != 0, now: now)
            case 4:
                _ = watched.confirm((input.byte() ?? 1) & 1 != 0, now: now)
            case 5:
                _ = watched.enterPasskey(SMPFuzzMaterial.passkey(&input), now: now)
            case 6:
                let status = input.byte() ?? 0
                _ = watched.encryptionChanged(status: status < 0x80 ? 0 : status, now: now)
            case 7:
                if input.byte() ?? 0 == 0 {
                    _ = watched.longTermKeyRequested(ediv: 0, rand: 0)
                } else {
                    let ediv = input.uint16() ?? 0
                    _ = watched.longTermKeyRequested(ediv: ediv, rand: UInt64(truncatingIfNeeded: SMPFuzzMaterial.value128(&input)))
                }
            case 8:
                now += .seconds(Int(input.byte() ?? 31))
                _ = watched.expire(now: now)
            case 9:
                _ = watched.disconnected(now: now)
            default:
                if let pdu = watched.lastSent { _ = watched.receive(offsetSlice(pdu.bytes), now: now) }
            }
        }
    }
}
