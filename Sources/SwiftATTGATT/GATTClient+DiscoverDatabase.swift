import SwiftATTPDU
import SwiftATTCore

extension GATTClient {
    /// The whole discovery a client runs on a new server (or on a range after Service
    /// Changed): every primary service, their included services, every characteristic
    /// and every descriptor, as one procedure producing a `GATTClientDatabase`.
    ///
    /// In order: Discover All Primary Services over the range (Core 5.4 Vol 3 Part G
    /// §4.4.1), Find Included Services in each service (§4.5.1) — an included service
    /// that is not one of the primary services found is a secondary service, searched in
    /// turn — then Discover All Characteristics of each service (§4.6.1), then Discover
    /// All Characteristic Descriptors of each characteristic with room for any (§4.7.1).
    /// Each step is the procedure of that name, so it has their bounds; the first failure
    /// fails the whole discovery.
    public struct DiscoverDatabase: GATTProcedure, GATTCoreProcedure {
        public typealias Output = GATTClientDatabase

        public let mtu: Int
        /// The handles searched.
        public let range: ClosedRange<UInt16>

        /// The procedure running now, and where its result goes.
        enum Stage: Sendable {
            case services(DiscoverPrimaryServices)
            case includes(FindIncludedServices, service: Int)
            case characteristics(DiscoverCharacteristics, service: Int)
            case descriptors(DiscoverAllCharacteristicDescriptors, service: Int, characteristic: Int)
        }

        var core = GATTProcedureCore<Output>(roundTripLimit: .max)
        var stage: Stage
        /// Services in discovery order (primary ones in handle order, then secondary).
        var records: [GATTClientDatabase.ServiceRecord] = []

        /// A procedure discovering everything in `range`.
        public init(range: ClosedRange<UInt16> = 0x0001...0xFFFF, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.range = range
            stage = .services(DiscoverPrimaryServices(range: range, mtu: mtu))
        }

        public mutating func start() -> Step {
            let first = run(nil)
            return core.begin(first)
        }

        mutating func advance(_ pdu: ATTPDU) -> Step { run(pdu) }

        /// Feeds the running stage (starts it when `pdu` is `nil`) and moves through the
        /// stages that finish without a request, until one asks for one or all are done.
        private mutating func run(_ pdu: ATTPDU?) -> Step {
            var input = pdu
            while true {
                defer { input = nil }
                switch stage {
                case var .services(procedure):
                    let step = input.map { procedure.receive($0) } ?? procedure.start()
                    stage = .services(procedure)
                    switch step {
                    case let .request(request): return .request(request)
                    case let .failed(error): return .failed(error)
                    case let .done(services):
                        records = services.map { GATTClientDatabase.ServiceRecord(service: $0) }
                        guard let next = includesStage(0) else { return finish() }
                        stage = next
                    }
                case .includes(var procedure, let service):
                    let step = input.map { procedure.receive($0) } ?? procedure.start()
                    stage = .includes(procedure, service: service)
                    switch step {
                    case let .request(request): return .request(request)
                    case let .failed(error): return .failed(error)
                    case let .done(included):
                        records[service].includedServices = included
                        addSecondaryServices(included)
                        guard let next = includesStage(service + 1) ?? characteristicsStage(0) else { return finish() }
                        stage = next
                    }
                case .characteristics(var procedure, let service):
                    let step = input.map { procedure.receive($0) } ?? procedure.start()
                    stage = .characteristics(procedure, service: service)
                    switch step {
                    case let .request(request): return .request(request)
                    case let .failed(error): return .failed(error)
                    case let .done(characteristics):
                        records[service].characteristics = characteristics.map { GATTClientDatabase.CharacteristicRecord(characteristic: $0) }
                        guard let next = characteristicsStage(service + 1) ?? descriptorsStage(0, 0) else { return finish() }
                        stage = next
                    }
                case .descriptors(var procedure, let service, let characteristic):
                    let step = input.map { procedure.receive($0) } ?? procedure.start()
                    stage = .descriptors(procedure, service: service, characteristic: characteristic)
                    switch step {
                    case let .request(request): return .request(request)
                    case let .failed(error): return .failed(error)
                    case let .done(descriptors):
                        records[service].characteristics[characteristic].descriptors = descriptors
                        guard let next = descriptorsStage(service, characteristic + 1) else { return finish() }
                        stage = next
                    }
                }
            }
        }

        private func finish() -> Step {
            .done(GATTClientDatabase(services: records))
        }

        /// Included services that are none of the services known so far are secondary
        /// services: they are searched too. One overlapping a known service is not
        /// added (it is that service, or the server is confused).
        private mutating func addSecondaryServices(_ included: [IncludedService]) {
            for include in included where !records.contains(where: { $0.service.handles.overlaps(include.handles) }) {
                records.append(GATTClientDatabase.ServiceRecord(
                    service: Service(uuid: include.uuid, handles: include.handles, isPrimary: false)))
            }
        }

        private func includesStage(_ service: Int) -> Stage? {
            guard service < records.count else { return nil }
            return .includes(FindIncludedServices(service: records[service].service, mtu: mtu), service: service)
        }

        private func characteristicsStage(_ service: Int) -> Stage? {
            guard service < records.count else { return nil }
            return .characteristics(DiscoverCharacteristics(service: records[service].service, mtu: mtu), service: service)
        }

        /// The next characteristic, from `characteristic` of `service` on, with room for
        /// descriptors.
        private func descriptorsStage(_ service: Int, _ characteristic: Int) -> Stage? {
            var s = service
            var c = characteristic
            while s < records.count {
                while c < records[s].characteristics.count {
                    let found = records[s].characteristics[c].characteristic
                    if found.descriptorHandles != nil {
                        return .descriptors(DiscoverAllCharacteristicDescriptors(characteristic: found, mtu: mtu), service: s, characteristic: c)
                    }
                    c += 1
                }
                s += 1
                c = 0
            }
            return nil
        }
    }
}
