import Foundation
import IAPSimCore
import Testing

@testable import IAPSimScenario

/// The `--log` writer (`JSONLineWriter`, a switch over `Fact` writing bytes) against the
/// reflection it replaced (`FactFields.of` read through `Mirror`, then `JSONValue`): the
/// same bytes for every record of every shipped scenario, for facts no shipped scenario
/// logs, and for the replays' fields on an anomaly's line.
@Suite struct FactFieldsWriterTests {
    /// A log line as the reflection writes it (the writer before the switch).
    static func reflected(_ record: RunRecord, whatIf: WhatIfReport? = nil) -> String? {
        guard case .entry(let entry) = record else { return JSONLinesExport.line(record, whatIf: whatIf) }
        var (kind, fields) = FactFields.of(entry.fact)
        if case .anomalyOpened(let id, _, _, _, _) = entry.fact, let x = whatIf?.explanation(of: id) {
            fields += WhatIfFields.of(x)
        }
        return JSONValue.object(
            [
                ("t", .int(entry.time)), ("clock", .string(DurationText.clock(entry.time))),
                ("part", .string(entry.part.rawValue)), ("kind", .string(kind)),
            ] + fields + [("text", .string(entry.fact.text))]
        ).text
    }

    static let scenarios: [String] = {
        let folder = StoreKitFixtures.root.appendingPathComponent("scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0).path }
    }()

    @Test func everyShippedScenarioLogsTheBytesReflectionWrote() throws {
        #expect(Self.scenarios.count >= 20)
        var kinds: Set<String> = []
        for path in Self.scenarios {
            let records = ScenarioPlayer.run(try ScenarioParser.load(path: path)).records
            for record in records {
                let line = JSONLinesExport.line(record)
                #expect(line == Self.reflected(record), "\(path)")
                if case .entry(let e) = record { kinds.insert(FactFields.of(e.fact).kind) }
            }
        }
        #expect(kinds.count >= 70)
    }

    /// A line's clock, written digit by digit into the line, is `DurationText.clock`.
    @Test func theClockIsWrittenAsDurationTextWritesIt() {
        let times: [VirtualTime] = [
            0, 1, 999, 1_000, 59_999, 60_000, 3_599_999, 3_600_000, 3_723_004, 86_400_000 * 400 + 7, -1, -3_723_004,
            .max, .min,
        ]
        for time in times {
            let out = JSONLineWriter(capacity: 1)
            out.clock(time)
            #expect(out.text == DurationText.clock(time))
        }
    }

    /// A policy change is written with the two fields it always had, the key's word and the value's.
    @Test func aPolicyChangeKeepsItsKeyAndValueFields() throws {
        let change = FactFields.of(.policyChanged(.key(try PolicySetting(.retryInterval, "60s"))))
        #expect(change.kind == "policyChanged")
        #expect(change.fields.map(\.0) == ["key", "value"])
        #expect(
            change.fields.map { "\($0.1)" } == ["\(JSONValue.string("retry-interval"))", "\(JSONValue.string("1m"))"])
        let preset = FactFields.of(.policyChanged(.preset(.sk2Hardened)))
        #expect(
            preset.fields.map { "\($0.1)" } == ["\(JSONValue.string("preset"))", "\(JSONValue.string("sk2-hardened"))"])
    }

    @Test func factsNoScenarioLogsAreWrittenAsReflectionWroteThem() {
        let facts: [Fact] = [
            .deferredExpired(txn: "1"), .finishFailedError(txn: "2", reason: "r \"q\""),
            .policyChanged(.key(try! PolicySetting(.persist, "file"))), .policyChanged(.preset(.naive)),
            .rechargeWaitingForLogin(txn: "3"),
            .reconcileSkipped(reason: "none"), .replayUnavailable, .verifyRetriedInSandbox(txn: "4"),
            .accessChanged(user: "alice", productId: "pro_monthly", until: nil, why: "expired"),
            .anomalyStatusChanged(id: 3, type: .lostOrder, status: .resolved, mechanism: nil),
            .paymentAdded(txn: "5", product: "p\u{1B}[2J", applicationUsername: nil, user: "bob", order: "o1"),
            .transactionsDelivered(txns: [], redelivery: false), .retryScheduled(txn: "6", inMs: -5, attempt: .max),
            .receiptVerified(status: .min, entries: 0),
        ]
        for fact in facts {
            let record = RunRecord.entry(LogEntry(time: 3_723_004, part: .app, fact: fact))
            #expect(JSONLinesExport.line(record) == Self.reflected(record))
        }
    }

    @Test func anAnomalysLineCarriesTheReplaysAnswersAsBefore() throws {
        let scenario = try ScenarioParser.load(path: StoreKitFixtures.shipped("lost-order-crash-at-charge-naive.yaml"))
        let played = ScenarioPlayer.run(scenario)
        let report = scenario.whatIf(played.result.simulation)
        var opened = 0
        for record in played.records {
            if case .entry(let e) = record, case .anomalyOpened = e.fact { opened += 1 }
            #expect(JSONLinesExport.line(record, whatIf: report) == Self.reflected(record, whatIf: report))
        }
        #expect(opened > 0)
        #expect(JSONLinesExport.text(played.records, whatIf: report).contains("\"preventedBy\":[["))
    }

    /// A string quoted scalar by scalar, as the log did before it wrote bytes.
    static func quotedByScalars(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if VisibleText.isControl(scalar) || VisibleText.isBidiControl(scalar) || scalar.value == 0x2028
                    || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    @Test func stringsAreEscapedAsScalarByScalar() {
        var samples = [
            "", "plain", "a\"b\\c", "tab\tnew\nline\rret", "\u{1B}[2J", "del\u{7F}", "c1 \u{85}\u{9B}x",
            "token 0444db3f\u{2026}", "bidi \u{202E}evil\u{2066}\u{061C}", "sep \u{2028}\u{2029}", "emoji \u{1F600}",
            "caf\u{E9} \u{A0}nbsp \u{A9}", "\u{FEFF}bom", "\u{0}nul",
        ]
        // Every scalar up to U+3000 once, and each beside ASCII.
        samples.append(String(String.UnicodeScalarView((UInt32(0)..<0x3000).compactMap { Unicode.Scalar($0) })))
        samples += (UInt32(0)..<0x3000).compactMap { Unicode.Scalar($0) }.map { "a\($0)b" }
        // Long strings, read eight bytes at a time: each special at every offset of a word.
        let specials: [Unicode.Scalar] = [
            "\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "\u{E9}", "\u{2028}", "\u{202E}",
            "\u{1F600}", "~", " ",
        ]
        for special in specials {
            for offset in 0..<20 {
                samples.append(
                    String(repeating: "x", count: offset) + String(special) + String(repeating: "y", count: 19))
            }
        }
        for s in samples { #expect(JSONValue.quoted(s) == Self.quotedByScalars(s), "\(Array(s.unicodeScalars))") }
    }
}
