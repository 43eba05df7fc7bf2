import SwiftATTCore
import SwiftATTDatabaseFile
import SwiftATTGATT
import SwiftATTProfiles

extension PeripheralSession {
    /// What one run of `swift-att peripheral` serves: the profile's server (its database
    /// and the characteristics the session pushes values on), what it advertises, and the
    /// names to print its UUIDs with.
    struct Setup {
        let served: Served
        let advertisement: ProfileAdvertisement
        let names: [BluetoothUUID: String]
        /// The advertised name (and GAP Device Name).
        let name: String
        /// The Battery service's level, when one is served (battery, heart-rate --battery).
        let batteryLevel: GATTCharacteristic?
        /// What the database's GAP service holds (its name and appearance).
        let genericAccess: GATTGenericAccess

        /// The database to serve. With `features` (`--eatt`: Enhanced ATT), the same
        /// services are built again after a GATT service whose Server Supported Features
        /// announces them: the characteristics are the same objects, so the profile's
        /// handlers and the values the session pushes still find theirs.
        func database(announcing features: GATTServerFeatures) throws(CommandError) -> GATTDatabase {
            let database = served.database
            guard !features.isEmpty else { return database }
            let builtIn = [GATTAttributeType.genericAccessService, GATTAttributeType.genericAttributeService]
            do {
                return try GATTDatabase(services: Array(database.services.drop { builtIn.contains($0.uuid) }),
                                        genericAccess: genericAccess, serverFeatures: features)
            } catch {
                throw .input("peripheral: \(error)")
            }
        }
    }

    enum Served {
        case heartRate(HeartRateProfile.Server)
        case transfer(TransferProfile.Server)
        case serial(SerialModuleProfile.Server)
        case light(LightShieldProfile.Server)
        case battery(BatteryProfile.Server)
        case deviceInformation(DeviceInformationProfile.Server)
        case file(DatabaseFile, GATTDatabase)

        var database: GATTDatabase {
            switch self {
            case let .heartRate(s): return s.database
            case let .transfer(s): return s.database
            case let .serial(s): return s.database
            case let .light(s): return s.database
            case let .battery(s): return s.database
            case let .deviceInformation(s): return s.database
            case let .file(_, database): return database
            }
        }

        /// The characteristic whose subscribers the session streams to, if any.
        var pushed: GATTCharacteristic? {
            switch self {
            case let .heartRate(s): return s.measurement
            case let .transfer(s): return s.characteristic
            case let .serial(s): return s.characteristic
            case let .light(s): return s.tx
            case let .battery(s): return s.battery.level
            case .deviceInformation, .file: return nil
            }
        }

        /// The service named in the "advertising" line.
        var service: BluetoothUUID? {
            switch self {
            case .heartRate: return HeartRateProfile.service
            case .transfer: return TransferProfile.service
            case .serial: return SerialModuleProfile.service
            case .light: return LightShieldProfile.service
            case .battery: return BatteryProfile.service
            case .deviceInformation: return DeviceInformationProfile.service
            case let .file(file, _): return file.advertisedServices.first
            }
        }
    }

    /// Builds what `options` asks for; writes and Control Point commands go to `inputs`.
    static func setup(_ options: PeripheralCommand.Options, inputs: AsyncStream<Input>.Continuation) throws(CommandError) -> Setup {
        let name = options.name
        do {
            switch options.profile {
            case .heartRate:
                var alongside: [GATTService] = []
                var names = HeartRateProfile.names
                var level: GATTCharacteristic?
                if let battery = options.battery {
                    let service = BatteryProfile.Service(level: battery.level)
                    alongside.append(service.service)
                    level = service.level
                    names.merge(BatteryProfile.names) { a, _ in a }
                }
                if let information = options.deviceInformation {
                    alongside.append(DeviceInformationProfile.Service(information).service)
                    names.merge(DeviceInformationProfile.names) { a, _ in a }
                }
                let server = try HeartRateProfile.Server(name: name, alongside: alongside) { inputs.yield(.controlPoint($0)) }
                return Setup(served: .heartRate(server), advertisement: try HeartRateProfile.advertisement(name: name),
                             names: names, name: name, batteryLevel: level,
                             genericAccess: GATTGenericAccess(deviceName: name, appearance: HeartRateProfile.appearance))
            case .transfer:
                return Setup(served: .transfer(try TransferProfile.Server(name: name)),
                             advertisement: try TransferProfile.advertisement(name: name), names: TransferProfile.names, name: name, batteryLevel: nil, genericAccess: GATTGenericAccess(deviceName: name))
            case .hc08:
                let server = try SerialModuleProfile.Server(name: name) { inputs.yield(.written($0)) }
                return Setup(served: .serial(server), advertisement: try SerialModuleProfile.advertisement(name: name),
                             names: SerialModuleProfile.names, name: name, batteryLevel: nil, genericAccess: GATTGenericAccess(deviceName: name))
            case .light:
                let server = try LightShieldProfile.Server(name: name) { inputs.yield(.written($0)) }
                return Setup(served: .light(server), advertisement: try LightShieldProfile.advertisement(name: name),
                             names: LightShieldProfile.names, name: name, batteryLevel: nil, genericAccess: GATTGenericAccess(deviceName: name))
            case .battery:
                let server = try BatteryProfile.Server(name: name, level: options.battery?.level ?? 100)
                return Setup(served: .battery(server), advertisement: try BatteryProfile.advertisement(name: name),
                             names: BatteryProfile.names, name: name, batteryLevel: server.battery.level, genericAccess: GATTGenericAccess(deviceName: name))
            case .deviceInformation:
                let server = try DeviceInformationProfile.Server(name: name, information: options.deviceInformation ?? .init())
                return Setup(served: .deviceInformation(server), advertisement: try DeviceInformationProfile.advertisement(name: name),
                             names: DeviceInformationProfile.names, name: name, batteryLevel: nil, genericAccess: GATTGenericAccess(deviceName: name))
            case .database:
                return try fileSetup(options, inputs: inputs)
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw .usage("peripheral: \(error)")
        }
    }

    /// `--database FILE`: its faults are the file's (exit 1), named with its path.
    private static func fileSetup(_ options: PeripheralCommand.Options, inputs: AsyncStream<Input>.Continuation) throws(CommandError) -> Setup {
        guard let (path, text) = options.databaseFile else { throw .usage("peripheral: --database needs a file") }
        let file: DatabaseFile
        let database: GATTDatabase
        do {
            file = try DatabaseFile.parse(text) { inputs.yield(.fileWrite($0)) }
            database = try file.database(name: options.nameGiven ? options.name : nil)
        } catch {
            throw .input("\(path): \(error)")
        }
        let name = options.nameGiven ? options.name : (file.name ?? options.name)
        let appearance = file.appearance == 0 ? nil : file.appearance
        // As many of the services as fit beside the flags (and the appearance); the name
        // is shortened to fit, its whole in the scan response.
        var services = file.advertisedServices
        while true {
            if let advertisement = try? ProfileAdvertisement(name: name, services: services, appearance: appearance) {
                return Setup(served: .file(file, database), advertisement: advertisement, names: file.names, name: name, batteryLevel: nil,
                             genericAccess: GATTGenericAccess(deviceName: name, appearance: file.appearance))
            }
            guard !services.isEmpty else { break }
            services.removeLast()
        }
        throw .input("\(path): the advertisement does not fit in 31 octets")
    }
}
