import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

func scenario(_ steps: String, expect: String = "", policy: String = "hardened") throws -> Scenario {
    try ScenarioParser.parse(
        text: "format: 1\ntitle: t\npolicy: \(policy)\nusers: [alice, bob]\nsteps:\n" + steps + "\n"
            + expect,
        file: "r.yaml")
}

/// The (number, time) of every step that started.
func stepTimes(_ records: [RunRecord]) -> [(Int, VirtualTime)] {
    records.compactMap {
        if case .stepStarted(let number, _, let time) = $0 { return (number, time) }
        return nil
    }
}

@Suite struct RunnerTests {
    @Test func atAndAfterRunAtTheirVirtualTimes() throws {
        let s = try scenario(
            """
              - at: 90s
                do: open-store
              - after: 3s
                do: wait 1m
              - after: 250ms
                do: close-store
            """)
        let (records, result) = ScenarioPlayer.run(s)
        #expect(stepTimes(records).map(\.0) == [1, 2, 3])
        #expect(stepTimes(records).map(\.1) == [90_000, 93_000, 153_250])
        #expect(result.passed)
    }

    @Test func whenRunsTheCommandRightAfterTheEventBeforeAnyOther() throws {
        let s = try scenario(
            """
              - do: buy coins_100
              - when: charged
                do: crash
            """)
        let (records, _) = ScenarioPlayer.run(s)
        let step2 = try #require(
            records.firstIndex {
                if case .stepStarted(2, _, _) = $0 { return true }
                return false
            })
        let before = records[..<step2].compactMap { record -> LogEntry? in
            if case .entry(let e) = record { return e }
            return nil
        }
        // The charge is the last trigger-worthy fact before the crash: the delivery to the
        // observer, due at the same millisecond, never happens.
        #expect(before.compactMap(\.fact.triggerName).last == "charged")
        #expect(stepTimes(records)[1].1 == 2_160)
        guard case .entry(let next) = records[step2 + 1] else {
            Issue.record("the command must follow its step")
            return
        }
        #expect(next.fact == .commandIssued(.crash))
        #expect(
            !records.contains {
                if case .entry(let e) = $0 { return e.fact.triggerName == "delivered" }
                return false
            })
    }

    @Test func whenMatchesWhatThePreviousCommandItselfDid() throws {
        let s = try scenario(
            """
              - do: buy coins_100
              - when: request order
                within: 1ms
                do: crash
            """)
        let (records, result) = ScenarioPlayer.run(s)
        #expect(result.timeout == nil)
        #expect(stepTimes(records).map(\.1) == [0, 0])
    }

    @Test func whenThatNeverComesStopsTheRunNamingTheStep() throws {
        let s = try scenario(
            """
              - do: open-store
              - when: credited
                within: 1m
                do: crash
              - do: launch
            """, expect: "expect:\n  charged: 0\n")
        let (records, result) = ScenarioPlayer.run(s)
        let stop = try #require(result.timeout)
        #expect(
            stop.description
                == "step 2 (line 7): 'when: credited' did not happen within 1m; the run stops here")
        #expect(stop.time == 60_000)
        #expect(records.last == .stepTimedOut(stop))
        #expect(result.expectations.isEmpty)
        #expect(!result.passed)
        #expect(
            Transcript.verdict(result, scenario: s).suffix(2) == [
                "expectations: not checked, the run stopped", "FAIL: stopped at step 2 (line 7)",
            ])
    }

    @Test func expectationsAreCheckedAfterSettling() throws {
        let s = try scenario(
            "  - do: buy coins_550\n",
            expect: """
                expect:
                  charged: 1
                  credited: {bob: 0, alice: 100}
                  anomalies:
                    - {type: lost-order, count: 0}
                    - {type: missed-order}
                  unresolved: 0
                  queue: 0
                """)
        let (records, result) = ScenarioPlayer.run(s)
        #expect(
            result.expectations == [
                ExpectationResult(name: "charged", expected: "1", actual: "1", holds: true),
                ExpectationResult(name: "credited alice", expected: "100", actual: "550", holds: false),
                ExpectationResult(name: "credited bob", expected: "0", actual: "0", holds: true),
                ExpectationResult(name: "anomalies lost-order", expected: "0", actual: "0", holds: true),
                ExpectationResult(
                    name: "anomalies missed-order", expected: "at least 1", actual: "0",
                    holds: false),
                ExpectationResult(name: "unresolved", expected: "0", actual: "0", holds: true),
                ExpectationResult(name: "queue", expected: "0", actual: "0", holds: true),
            ])
        #expect(!result.passed)
        guard case .settled(_, true) = records.last else {
            Issue.record("the run must end settled")
            return
        }
        let verdict = Transcript.verdict(result, scenario: s)
        #expect(verdict.contains("  FAILS  credited alice: expected 100, actual 550"))
        #expect(verdict.last == "FAIL: 2 of 7 expectations fail")
    }

    @Test func sameScenarioSameRecordsByteForByte() throws {
        let s = try ScenarioParser.load(path: Fixtures.path("format-example.yaml"))
        let first = JSONLinesExport.text(ScenarioPlayer.run(s).records)
        let second = JSONLinesExport.text(ScenarioPlayer.run(s).records)
        #expect(first == second)
        #expect(!first.isEmpty)
    }

    @Test func playingStepByStepGivesTheSameRecordsAsARun() throws {
        let s = try ScenarioParser.load(path: Fixtures.path("format-example.yaml"))
        var player = ScenarioPlayer(s)
        var records = player.openingRecords
        while !player.stepsDone { records += player.playStep() }
        records += player.finish().records
        #expect(records == ScenarioPlayer.run(s).records)
    }
}
