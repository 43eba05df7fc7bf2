import SwiftATTHCI

extension Result where Success == HCICommandAnswer, Failure == ControllerError {
    /// What the answer (or the failure to get one) says of a `C` command: its decoded
    /// return parameters, or why it failed (`HCICommand.returnParameters(from:)`).
    @inlinable
    func returnParameters<C: HCICommand>(of command: C.Type) -> Result<C.ReturnParameters, ControllerError> {
        flatMap { answer in
            do throws(HCIError) {
                return .success(try C.returnParameters(from: answer))
            } catch {
                return .failure(.hci(error))
            }
        }
    }
}
