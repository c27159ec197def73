import IAPSimCore
import IAPSimScenario

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `explore --out DIR`: after a run it holds that run's findings only, one `TYPE.yaml` per
/// anomaly type found.
enum FindingsDirectory {
    /// The names explore may write in the directory.
    static let names = AnomalyType.simulatedWorld.map { "\($0.rawValue).yaml" }

    /// Removes the `TYPE.yaml` files an earlier run wrote for types this run did not find.
    /// Other files in the directory are left alone.
    static func removeStale(_ dir: String, keeping found: [AnomalyType]) {
        for type in AnomalyType.simulatedWorld where !found.contains(type) {
            _ = FileName.withCString(RunExports.path(dir, "\(type.rawValue).yaml")) { unlink($0) }
        }
    }
}
