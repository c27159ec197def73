import Foundation

let traceOn = !(ProcessInfo.processInfo.environment["IAPSIM_TRACE"] ?? "").isEmpty
func trace(_ s: @autoclosure () -> String) {
    if traceOn {
        FileHandle.standardError.write(
            ("TRACE \(DispatchTime.now().uptimeNanoseconds / 1000) " + s() + "\n").data(using: .utf8)!)
    }
}
