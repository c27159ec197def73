import Foundation
import Testing

/// `retry-max-interval` through the real binary: a scenario sets it, the transcript says
/// when a round comes after a back-off, and a bad value is refused before anything runs.
@Suite struct BackOffCLITests {
    static func scenario(_ policy: String) throws -> String {
        let file = CLI.temporaryFile("backoff-\(abs(policy.hashValue)).yaml")
        let text = """
            format: 1
            title: an outage that outlasts a few periodic rounds
            policy: \(policy)
            users: [alice]
            steps:
              - do: store-outage on
              - do: buy coins_550
              - do: wait 1h
              - do: store-outage off
            """
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    static func periodicLines(_ result: CLI.Result) -> [String] {
        result.lines.filter { $0.contains("POST /recharge") && $0.contains("periodic retry") }
    }

    @Test func hardenedBacksOffAndSaysSo() throws {
        let file = try Self.scenario("hardened")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try CLI.run(["run", file])
        #expect(result.status == 0, "\(result.stderr)")
        // Rounds at 5, 10, 20 and 40 minutes; the outage ends at 60; the next, at 80, credits.
        let rounds = Self.periodicLines(result).map { String($0.prefix(7)) }
        #expect(rounds == ["0:05:07", "0:10:07", "0:20:07", "0:40:07", "1:20:07"], "\(result.stdout)")
        #expect(Self.periodicLines(result)[2].hasSuffix("(periodic retry 3, backed off to 10m)"))
        #expect(result.stdout.contains("resolved: periodic retry 5, backed off to 40m"))
    }

    @Test func offKeepsFiveMinutes() throws {
        let file = try Self.scenario("{preset: hardened, retry-max-interval: off}")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try CLI.run(["run", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.periodicLines(result).count == 12, "every 5 minutes until the outage ends")
        #expect(!result.stdout.contains("backed off"))
    }

    @Test func aBadValueIsRefusedWithWhatIsAccepted() throws {
        let file = try Self.scenario("{preset: hardened, retry-max-interval: soon}")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try CLI.run(["run", file])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "\(file):3:48: bad value 'soon' for policy key 'retry-max-interval'; "
                + "accepted: a duration such as 1h or 24h, or off\n")
    }
}
