import ArgumentParser
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

extension FindingsDirectory {
    /// Stages each finding's text at its path, prints `report`, then renames the findings
    /// into place (all or none; a directory made for no finding is removed again) and removes
    /// the `TYPE.yaml` of every type not found. A file that cannot be written: one line, exit 2.
    static func publish(
        _ findings: [(type: AnomalyType, path: String, text: String)], in dir: String, files: inout OutputFiles,
        report: [String]
    ) throws {
        do {
            for finding in findings { try files.stage(finding.text, to: finding.path) }
            try files.finish()
            try Output.print(report)
            if findings.isEmpty {
                files.discard()  // no directory left behind that this run made for nothing
            } else {
                try files.commit()
            }
        } catch let failure as OutputFiles.Failure {
            files.discard()
            Output.error("Error: \(failure.message)")
            throw ExitCode(2)
        } catch {
            files.discard()
            throw error
        }
        removeStale(dir, keeping: findings.map(\.type))
    }
}
