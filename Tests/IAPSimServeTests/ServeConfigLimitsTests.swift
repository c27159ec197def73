import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

@testable import IAPSimServe

/// serve.yaml bounded as the scenario files are (docs/serve.md, "Limits"): aliases, map
/// sizes, values once aliases are expanded, durations with a floor, URLs a socket can take,
/// headers HTTP can carry; every refusal names file:line:column.
@Suite struct ServeConfigLimitsTests {
    static func refusal(_ text: String) -> String? {
        do {
            _ = try ServeConfig.parse(text, file: "s.yaml")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func nestedAliasesAreRefusedLongBeforeTheyExpand() {
        // 352 bytes that expand to billions of values (the issue's alias bomb).
        var text = "x: &a0 [k, k, k, k, k, k, k, k, k, k]\n"
        for i in 1..<9 {
            text += "x\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let clock = ContinuousClock()
        let start = clock.now
        let message = Self.refusal(text)
        #expect(clock.now - start < .seconds(2))
        #expect(message?.hasPrefix("s.yaml:") == true, "\(message ?? "accepted")")
        #expect(message?.contains("once its aliases are expanded") == true, "\(message ?? "accepted")")
        let many = (0...100).map { "k\($0): *a" }.joined(separator: "\n")
        #expect(Self.refusal("a: &a x\n" + many)?.contains("more than 100 aliases") == true)
    }

    @Test func aLargeFileParsesInLinearTime() {
        // 300,000 keys in maps of 900: under the limits, and read in well under a second each
        // time the file doubles (the key check was quadratic in a map's size).
        func file(_ maps: Int) -> String {
            (0..<maps).map { m in "m\(m): {" + (0..<900).map { "k\($0): v" }.joined(separator: ", ") + "}" }
                .joined(separator: "\n")
        }
        let clock = ContinuousClock()
        let small = clock.measure { _ = Self.refusal(file(20)) }
        let large = clock.measure { _ = Self.refusal(file(80)) }
        #expect(large < small * 10 + .milliseconds(200), "\(small) then \(large)")
        #expect(
            Self.refusal("m: {" + (0...1_000).map { "k\($0): v" }.joined(separator: ", ") + "}")?
                .contains("a map of more than 1000 keys") == true)
    }

    @Test func aHeaderValueWithACRorLFIsRefusedAtItsPlace() {
        let text = "users:\n  alice: {headers: {X-Token: \"a\\r\\nX-Admin: 1\"}}\n"
        let message = Self.refusal(text)
        #expect(message?.hasPrefix("s.yaml:2:") == true, "\(message ?? "accepted")")
        #expect(message?.contains("control character (CR)") == true, "\(message ?? "accepted")")
        #expect(Self.refusal("users: {alice: {headers: {\"X Token\": a}}}")?.contains("not an HTTP token") == true)
        #expect(Self.refusal("users: {alice: {headers: {X-Token: \"a\\tb\"}}}") == nil, "a tab is allowed")
    }

    @Test func ticksHaveAFloorAndACeilingAndNeverOverflow() {
        for every in ["1ms", "999ms", "99999999999999999d", "401d", "0s"] {
            let message = Self.refusal("ticks: [{path: /t, every: \(every)}]")
            #expect(message?.contains("from 1s to 400d") == true, "\(every): \(message ?? "accepted")")
            #expect(message?.hasPrefix("s.yaml:1:") == true)
        }
        #expect(Self.refusal("ticks: [{path: /t, every: 1s}]") == nil)
        #expect(Self.refusal("ticks: [{path: /t, every: 400d}]") == nil)
        #expect(ServeConfig.duration("99999999999999999d") == nil)
    }

    @Test func aBackendURLMustNameAPortASocketCanTake() {
        for url in [
            "http://127.0.0.1:99999", "http://127.0.0.1:0", "http://:80", "ftp://x", "http://a b", "http://u@h",
        ] {
            #expect(ServeConfig.backendProblem(url) != nil, "\(url)")
        }
        for url in ["http://127.0.0.1:8000", "https://example.com", "http://[::1]:8080/base", "http://h/x?y"] {
            #expect(ServeConfig.backendProblem(url) == nil, "\(url)")
        }
        #expect(Self.refusal("backend: http://127.0.0.1:99999")?.contains("the port from 1 to 65535") == true)
    }

    @Test func backendNumbersAreReadExactlyOrNotAtAll() throws {
        let parsed = try #require(ServeJSON.object(#"{"a": 1e300, "b": -9223372036854775808, "c": 2.5, "d": 12}"#))
        #expect(ServeJSON.integer(parsed["a"]) == nil)
        #expect(ServeJSON.word(parsed["a"]) == nil)
        #expect(ServeJSON.integer(parsed["b"]) == Int.min)
        #expect(ServeJSON.integer(parsed["b"], within: ServeLimits.maxLedgerCoins) == nil)
        #expect(ServeJSON.integer(parsed["c"]) == nil)
        #expect(ServeJSON.integer(parsed["d"], within: ServeLimits.maxLedgerCoins) == 12)
    }

    @Test func aRecordingsBlockMustBeOneServeCouldChoose() {
        for block in ["-1", "100000000", "1e300", "\"x\""] {
            #expect(throws: ServeFailure.self) {
                _ = try ServeRecord.read("{\"iapsim-serve-record\":1,\"block\":\(block)}\n", file: "r.jsonl")
            }
        }
        #expect(throws: Never.self) { _ = try ServeRecord.read("{\"iapsim-serve-record\":1,\"block\":7}\n", file: "r") }
    }

    @Test func serverAPIFailTakesOnlyErrorStatuses() {
        #expect(ServerAPIFaultState.status(of: 1_000_000) == 500)
        #expect(ServerAPIFaultState.status(of: 4_290_000) == 429)
        #expect(ServerAPIFaultState.status(of: 3_020_000) == 500)
    }
}
