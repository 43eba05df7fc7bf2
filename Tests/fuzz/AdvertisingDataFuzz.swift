import SwiftATTAdvertising
import SwiftATTCore

/// Target `advertising`: one advertising or scan response payload, as it arrives in an
/// advertising report from anyone in range.
///
/// Parsing never traps. What parses walks as structures whose typed items describe
/// themselves (the CLI prints them), re-encode to the payload, and re-encode item by item
/// to structures that decode to the same items (the reserved bits ADItem drops are
/// dropped again, so the items agree). The typed accessors and beacon decoders run on
/// every payload, and the scanner's merge keeps the valid prefix of one that does not
/// parse.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdvertisingData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let bytes = input.rest()
    let (prefix, error) = AdvertisingData.parsingValidPrefix(bytes[...])
    walk(prefix)
    var merger = AdvertisementMerger()
    let device = merger.merge(address: BluetoothAddress(0x0000_C0FF_EE00_0001, kind: .random), payload: bytes,
                              rssi: -50, isScanResponse: false, at: .now)
    blackHole(device.description)
    do {
        let parsed = try AdvertisingData(parsing: bytes[...])
        require(error == nil, "parses, but its valid prefix reports \(String(describing: error))")
        require(parsed.encoded() == bytes, "re-encodes differently")
        require((try? AdvertisingData(parsing: offsetSlice(bytes))) == parsed, "parses differently at an offset")
        walk(parsed)
        let items = parsed.items
        let rebuilt = AdvertisingData(items.map { ADStructureFromItem($0) })
        require(rebuilt.items == items, "items re-encode to structures that decode differently")
    } catch {
        blackHole(error.description)
    }
    return 0
}

/// An item's own encoding, parsed back as one structure.
private func ADStructureFromItem(_ item: ADItem) -> ADStructure {
    let encoded = item.encoded()
    guard let data = try? AdvertisingData(parsing: encoded), let first = data.first, data.count == 1 else {
        require(false, "item \(item) encodes to \(encoded), not one structure")
        fatalError()
    }
    return first
}

/// Everything a scanner or the CLI reads from a payload.
private func walk(_ data: AdvertisingData) {
    for structure in data {
        blackHole(structure.description)
        blackHole(ADItem(structure).description)
    }
    blackHole(data.flags)
    blackHole(data.serviceUUIDs)
    blackHole(data.solicitedServiceUUIDs)
    blackHole(data.localName?.description)
    blackHole(data.txPowerLevel)
    blackHole(data.peripheralConnectionIntervalRange?.description)
    blackHole(data.serviceData.map(\.description))
    blackHole(data.appearance?.description)
    blackHole(data.targetAddresses)
    blackHole(data.advertisingInterval?.description)
    blackHole(data.leBluetoothDeviceAddress)
    blackHole(data.leRole?.description)
    blackHole(data.uris.map(\.description))
    blackHole(data.manufacturerSpecificData.map(\.description))
    blackHole(data.iBeacon?.description)
    blackHole(data.eddystone?.description)
    blackHole(data.paddingIsZero)
}
