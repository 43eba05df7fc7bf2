import SwiftATTCore
import SwiftATTGATT
import SwiftATTPDU

/// Reading and writing values (Core 5.4 Vol 3 Part G §4.8, §4.9, §4.12).
extension Peer {
    /// Reads a characteristic's whole value: Read Characteristic Value (§4.8.1), going
    /// on with Read Blob Requests (§4.8.3) while the value fills the response.
    public func read(_ characteristic: GATTClient.Characteristic) async throws(GATTClientError) -> [UInt8] {
        try await read(handle: characteristic.valueHandle)
    }

    /// Reads a descriptor's whole value (§4.12.1, §4.12.2).
    public func read(_ descriptor: GATTClient.Descriptor) async throws(GATTClientError) -> [UInt8] {
        try await read(handle: descriptor.handle)
    }

    /// Reads the attribute at `handle`, long values included; from `offset` if given.
    public func read(handle: UInt16, offset: UInt16 = 0) async throws(GATTClientError) -> [UInt8] {
        try await run { mtu in GATTClient.ReadLongCharacteristicValues(handle: handle, offset: offset, mtu: mtu) }
    }

    /// Read Using Characteristic UUID (§4.8.2): every value of that type in `range`.
    public func read(using uuid: BluetoothUUID, in range: ClosedRange<UInt16> = 0x0001...0xFFFF) async throws(GATTClientError) -> [GATTClient.HandleValue] {
        try await run { mtu in GATTClient.ReadUsingCharacteristicUUID(uuid: uuid, range: range, mtu: mtu) }
    }

    /// Read Multiple Characteristic Values (§4.8.4): values of known, fixed lengths in
    /// one request.
    public func readMultiple(_ values: [(handle: UInt16, length: Int)]) async throws(GATTClientError) -> [[UInt8]] {
        try await run { mtu in GATTClient.ReadMultipleCharacteristicValues(values, mtu: mtu) }
    }

    /// Read Multiple Variable Length Characteristic Values (§4.8.5).
    public func readMultipleVariable(handles: [UInt16]) async throws(GATTClientError) -> [[UInt8]] {
        try await run { mtu in GATTClient.ReadMultipleVariableLengthCharacteristicValues(handles: handles, mtu: mtu) }
    }

    /// Writes a characteristic's value, as `type` says (see `GATTWriteType`).
    public func write(_ value: [UInt8], to characteristic: GATTClient.Characteristic, type: GATTWriteType = .withResponse) async throws(GATTClientError) {
        try await write(value, handle: characteristic.valueHandle, type: type)
    }

    /// Writes a descriptor's value (§4.12.3, §4.12.4).
    public func write(_ value: [UInt8], to descriptor: GATTClient.Descriptor) async throws(GATTClientError) {
        try await write(value, handle: descriptor.handle, type: .withResponse)
    }

    /// Writes the attribute at `handle`: a Write Request, or Prepare/Execute Write
    /// Requests when the value does not fit ATT_MTU−3; or a Write Command.
    ///
    /// With Enhanced ATT bearers open, a Write Request may go out on any of them, so the
    /// value must fit the smallest ATT_MTU among them (a peer's bearer may be smaller than
    /// the unenhanced one); commands always go on the unenhanced bearer.
    public func write(_ value: [UInt8], handle: UInt16, type: GATTWriteType = .withResponse) async throws(GATTClientError) {
        switch type {
        case .withResponse:
            let smallest = await controller.perform(orElse: ATTLimits.defaultMTU) { [handle = self.handle] stack in
                stack.attributes.smallestMTU(of: handle) ?? ATTLimits.defaultMTU
            }
            if value.count <= smallest - 3 {
                try await run { mtu in GATTClient.WriteCharacteristicValue(handle: handle, value: value, mtu: mtu) }
            } else {
                try await run { mtu in GATTClient.WriteLongCharacteristicValues(handle: handle, value: value, mtu: mtu) }
            }
        case .withoutResponse:
            let mtu = await self.mtu
            try await sendCommand(try GATTClient.writeWithoutResponse(handle: handle, value: value, mtu: mtu))
        case .signedWithoutResponse:
            let mtu = await self.mtu
            guard !(await securityLevel).isEncrypted else {
                return try await sendCommand(try GATTClient.writeWithoutResponse(handle: handle, value: value, mtu: mtu))
            }
            guard let signing = await controller.nextSignature(onConnection: self.handle) else {
                throw .notSupported("Signed Write Without Response needs a bond with this device that gave it a CSRK "
                                    + "(Core 5.4 Vol 3 Part H §2.4.5): pair with bonding first, or write on an encrypted link")
            }
            try await sendCommand(try GATTClient.signedWriteWithoutResponse(
                handle: handle, value: value, mtu: mtu, signatureKey: signing.key, signCounter: signing.counter))
        }
    }

    /// Hands a command to the link (waiting while its transmit queue is full).
    private func sendCommand(_ pdu: ATTPDU) async throws(GATTClientError) {
        let result: GATTClientError? = await withCheckedContinuation { continuation in
            controller.loop.submit({ [handle = self.handle] stack in
                stack.attributes.sendClientCommand(pdu, on: handle) { continuation.resume(returning: $0) }
            }, refuse: { reason in
                continuation.resume(returning: .disconnected(.controllerStopped(reason)))
            })
        }
        if let result { throw result }
    }

    /// Reliable Writes (§4.9.5): every part prepared, each echo checked, then executed
    /// together; on an echo that differs, the prepared writes are cancelled and nothing
    /// is written.
    public func reliableWrite(_ writes: [GATTClient.ReliableWrites.Write]) async throws(GATTClientError) {
        try await run { mtu in GATTClient.ReliableWrites(writes, mtu: mtu) }
    }
}
