import SwiftATTCore
import SwiftATTHost

/// Says what happens to the links' security while a `swift-att central` action runs:
/// pairing, encryption with a bond, failures — on standard error for people (standard
/// output keeps the action's results), as JSON events on standard output with `--json`.
/// For `central pair` the pairing's outcome is the result, printed by the action itself.
enum CentralSecurityReport {
    static func start(central: Central, report: EventReport, resultOnStandardOutput: Bool) -> Task<Void, Never> {
        let events = central.controller.securityEvents()
        // On the loop, so that each event is printed before the action it came within goes on.
        return Task.onCommandLoop {
            for await event in events {
                if resultOnStandardOutput, case .paired = event.change { continue }
                if report.json {
                    report.emit("", SecurityEventText.json(event))
                } else if event.change.isStorageFailure {
                    Output.error(SecurityEventText.text(event))
                } else {
                    Output.progress(SecurityEventText.text(event))
                }
            }
        }
    }
}
