import Foundation
import IAPSimCore

extension ExploreReportFile {
    /// Why shard reports do not add up to one explore: one line, naming the files.
    struct MergeRefusal: Error, CustomStringConvertible {
        var description: String
    }

    /// What every shard of one explore shares, as a refusal names it.
    static var sameExplore: [(name: String, value: (ExploreReportFile) -> String)] {
        [
            ("seed", { "\($0.seed)" }), ("policy", { $0.policy }), ("catalog", { $0.catalog }),
            ("steps", { "\($0.steps)" }), ("runs", { "\($0.totalRuns)" }), ("skip", { "\($0.skip)" }),
            ("version", { $0.version }), ("swarm", { $0.swarm == true ? "on" : "off" }),
        ]
    }

    /// The report of the unsharded explore, from the reports of all its shards: runs, events,
    /// facts, anomaly counts and failing runs summed; per anomaly type the first four failing
    /// runs of all the shards' candidates (each of the unsharded explore's first four is among
    /// the first four of its shard) and, of those, the shortest shrunk scenario, ties by run
    /// index, as the unsharded explore picks; the findings' files named under `out`.
    static func merge(_ reports: [(path: String, report: ExploreReportFile)], out: String) throws(MergeRefusal)
        -> ExploreReportFile
    {
        guard let head = reports.first else { throw MergeRefusal(description: "no report to merge") }
        let (firstPath, first) = head
        for (path, report) in reports.dropFirst() {
            for field in sameExplore where field.value(report) != field.value(first) {
                throw MergeRefusal(
                    description: "\(path) is from \(field.name) \(field.value(report)), \(firstPath) from "
                        + "\(field.name) \(field.value(first)): merge takes the shards of one explore "
                        + "(the same seed, policy, catalog, steps, runs, skip, version and swarm)")
            }
        }
        try checkShards(reports)
        var merged = first
        merged.shard = Shard.whole.description
        for (_, report) in reports.dropFirst() {
            merged.runs += report.runs
            merged.events += report.events
            merged.facts += report.facts
            merged.anomalies.merge(report.anomalies) { a, b in a.merging(b, uniquingKeysWith: +) }
            merged.failingRuns.merge(report.failingRuns) { a, _ in a }
            for (type, theirs) in report.candidates {
                let all = (merged.candidates[type] ?? []) + theirs
                merged.candidates[type] = Array(all.sorted { $0.run < $1.run }.prefix(ExploreReport.candidateCount))
            }
            merged.jobs = max(merged.jobs, report.jobs)
            merged.seconds = max(merged.seconds, report.seconds)
        }
        merged.shrunk = merged.candidates.compactMapValues { $0.min { $0.isBetter(than: $1) } }
        merged.findings = merged.shrunk.mapValues { _ in "" }
        for type in merged.shrunk.keys {
            merged.findings[type] = (out as NSString).appendingPathComponent("\(type).yaml")
        }
        let seconds = max(merged.seconds, 1e-9)
        merged.runsPerSecond = Double(merged.runs) / seconds
        merged.eventsPerSecond = Double(merged.events) / seconds
        merged.factsPerSecond = Double(merged.facts) / seconds
        return merged
    }

    /// Every shard of the first report's N exactly once.
    static func checkShards(_ reports: [(path: String, report: ExploreReportFile)]) throws(MergeRefusal) {
        var seen: [Int: String] = [:]
        var count: Int?
        for (path, report) in reports {
            guard let shard = try? Shard.parse(report.shard, source: "shard") else {
                throw MergeRefusal(
                    description: "\(path) names shard \(report.shard): a shard is \(Shard.accepted)")
            }
            if let count, count != shard.count {
                let other = reports.first { $0.report.shard.hasSuffix("/\(count)") }?.path ?? ""
                throw MergeRefusal(
                    description: "\(path) is shard \(shard) of \(shard.count), \(other) of \(count): "
                        + "merge takes the shards of one explore, every one split in as many")
            }
            count = shard.count
            if let other = seen[shard.index] {
                throw MergeRefusal(description: "\(other) and \(path) are both shard \(shard): give each shard once")
            }
            seen[shard.index] = path
        }
        let total = count ?? 1
        let missing = (0..<total).filter { seen[$0] == nil }.map { "\($0)/\(total)" }
        guard missing.isEmpty else {
            throw MergeRefusal(
                description: (missing.count == 1
                    ? "shard \(missing[0]) is" : "shards \(missing.joined(separator: ", ")) are")
                    + " missing: merge needs the report of every shard, 0/\(total) to \(total - 1)/\(total)")
        }
    }

    /// Anomalies that ended open or permanent.
    var unresolved: Int {
        var sum = 0
        for byStatus in anomalies.values {
            for (status, n) in byStatus where AnomalyStatus(rawValue: status)?.isUnresolved == true { sum += n }
        }
        return sum
    }
}
