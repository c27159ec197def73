import IAPSimCore
import IAPSimScenario
import Testing

/// The message a file gets, or nil when it parses.
func refusal(_ text: String, file: String = "s.yaml") -> String? {
    do {
        _ = try ScenarioParser.parse(text: text, file: file)
        return nil
    } catch {
        return error.description
    }
}

func refusal(bytes: [UInt8]) -> String? {
    do {
        _ = try ScenarioParser.parse(bytes: bytes, file: "s.yaml")
        return nil
    } catch {
        return error.description
    }
}

/// A valid head (lines 1-3) for files whose steps are under test; steps start on line 5.
let head = "format: 1\ntitle: t\nusers: [alice, bob]\nsteps:\n"

/// One test per kind of refusal, each asserting the whole message with its position.
@Suite struct ParserErrorTests {
    @Test func emptyFile() {
        #expect(
            refusal("") == "s.yaml:1:1: the file is empty; a scenario needs at least: "
                + "format, title, steps")
        #expect(refusal("# only a comment\n\n") == refusal(""))
    }

    @Test func unreadableFile() {
        do {
            _ = try ScenarioParser.load(path: "/nonexistent/x.yaml")
            Issue.record("a missing file must be refused")
        } catch {
            #expect(error.description == "/nonexistent/x.yaml:1:1: cannot read the file: no such file")
        }
        do {
            _ = try ScenarioParser.load(path: "/tmp")
            Issue.record("a directory must be refused")
        } catch {
            #expect(
                error.description
                    == "/tmp:1:1: cannot read the file: it is a directory, not a scenario file")
        }
    }

    @Test func invalidUTF8PointsAtTheFirstBadByte() {
        let bytes = Array("format: 1\ntitle: caf".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        #expect(
            refusal(bytes: bytes)
                == "s.yaml:2:11: the file is not UTF-8 text (byte 0xC3); scenarios are UTF-8 YAML")
    }

    @Test func validMultibyteTextCountsColumnsInCharacters() {
        let bytes = Array("format: 1\ntitle: café ✓\u{0}".utf8)
        #expect(
            refusal(bytes: bytes)
                == "s.yaml:2:14: the file holds binary data (a NUL byte); scenarios are YAML text")
    }

    @Test func nulByte() {
        #expect(
            refusal("format: 1\n\u{0}title: t")
                == "s.yaml:2:1: the file holds binary data (a NUL byte); scenarios are YAML text")
    }

    @Test func controlCharacter() {
        #expect(
            refusal("format: 1\ntitle: a\u{7}b\n")
                == "s.yaml:2:9: the file holds binary data (control character U+0007); "
                + "scenarios are YAML text")
    }

    @Test func yamlSyntaxErrorKeepsYamlsPosition() {
        #expect(
            refusal("format: 1\ntitle: \"open\nsteps: []\n")
                == "s.yaml:4:1: invalid YAML: found unexpected end of stream "
                + "(while scanning a quoted scalar at line 2, column 8)")
        #expect(
            refusal("format: 1\n  title: t\n")
                == "s.yaml:2:8: invalid YAML: mapping values are not allowed in this context")
    }

    @Test func topLevelMustBeAMap() {
        #expect(refusal("- format: 1\n") == "s.yaml:1:1: the file must be a map, but it is a list")
    }

    @Test func wrongTypes() {
        #expect(
            refusal("format: 1\ntitle: t\nusers: alice\nsteps: []\n")
                == "s.yaml:3:8: 'users' must be a list, but it is 'alice'")
        #expect(
            refusal("format: 1\ntitle: [a]\nsteps: []\n")
                == "s.yaml:2:8: 'title' must be a string, but it is a list")
        #expect(
            refusal("format: 1\ntitle:\nsteps: []\n")
                == "s.yaml:2:7: 'title' must be a string, but it is empty")
        #expect(
            refusal("format: 1\ntitle: t\nseed: -3\nsteps: []\n")
                == "s.yaml:3:7: 'seed' is -3, out of range; it must be from 0 to 18446744073709551615")
        #expect(
            refusal("format: 1\ntitle: t\nsteps: {do: crash}\n")
                == "s.yaml:3:8: 'steps' must be a list, but it is a map")
        #expect(
            refusal(head + "  - crash\n")
                == "s.yaml:5:5: each step must be a map, but it is 'crash'")
        #expect(
            refusal("format: 1\ntitle: t\npolicy: [naive]\nsteps: []\n")
                == "s.yaml:3:9: 'policy' must be a preset name or a map of policy keys, "
                + "but it is a list")
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\nexpect: {charged: one}\n")
                == "s.yaml:4:19: 'charged' must be a whole number (0 or more), but it is 'one'")
    }

    @Test func missingRequiredKey() {
        #expect(
            refusal("format: 1\nsteps: []\n")
                == "s.yaml:1:1: missing required key 'title'; a scenario needs: format, title, steps")
        #expect(
            refusal("format: 1\ntitle: t\nsteps: []\nexpect:\n  anomalies:\n    - {count: 1}\n")
                == "s.yaml:6:7: missing required key 'type'; an anomaly needs: type")
    }

    @Test func unknownTopLevelKey() {
        #expect(
            refusal("format: 1\ntitel: t\n")
                == "s.yaml:2:1: unknown top-level key 'titel'; keys are: "
                + ScenarioVocabulary.topLevel.map(\.key).joined(separator: ", "))
    }

    @Test func formatOtherThanOne() {
        #expect(
            refusal("format: 2\ntitle: t\nsteps: []\n")
                == "s.yaml:1:9: unsupported format '2'; the only format is 1")
    }

    @Test func multilineTitle() {
        #expect(
            refusal("format: 1\ntitle: |\n  one\n  two\nsteps: []\n")
                == "s.yaml:2:8: 'title' must be one line; put the longer text in 'story'")
    }

    @Test func unknownAppState() {
        #expect(
            refusal("format: 1\ntitle: t\napp: asleep\nsteps: []\n")
                == "s.yaml:3:6: unknown app state 'asleep'; app is one of: running, not-running")
    }

    @Test func badUserLists() {
        #expect(
            refusal("format: 1\ntitle: t\nusers: []\nsteps: []\n")
                == "s.yaml:3:8: 'users' is empty; name at least one merchant account")
        #expect(
            refusal("format: 1\ntitle: t\nusers: [alice, \"bob smith\"]\nsteps: []\n")
                == "s.yaml:3:16: bad user name 'bob smith'; a name is letters, digits, '_', '-' or '.'")
        #expect(
            refusal("format: 1\ntitle: t\nusers: [alice, bob, alice]\nsteps: []\n")
                == "s.yaml:3:21: user 'alice' is listed twice in 'users'")
    }

    @Test func unknownUser() {
        #expect(
            refusal(head + "  - do: login carol\n")
                == "s.yaml:5:15: unknown user 'carol'; users are: alice, bob")
        #expect(
            refusal(head + "  - do: crash\nexpect:\n  credited: {alice: 1, dave: 2}\n")
                == "s.yaml:7:24: unknown user 'dave'; users are: alice, bob")
    }

    @Test func unknownPolicyKey() {
        #expect(
            refusal("format: 1\ntitle: t\npolicy: {preset: naive, retry: 3}\nsteps: []\n")
                == "s.yaml:3:25: unknown policy key 'retry'; policy keys are: preset, "
                + PolicyKeySpec.table.map(\.key.rawValue).joined(separator: ", "))
        #expect(
            refusal(head + "  - do: policy retry 3\n")?
                .hasPrefix("s.yaml:5:16: unknown policy key 'retry'; policy keys are: preset,") == true)
    }

    @Test func badPolicyValue() {
        #expect(
            refusal("format: 1\ntitle: t\npolicy: {retry-immediate: 11}\nsteps: []\n")
                == "s.yaml:3:27: bad value '11' for policy key 'retry-immediate'; "
                + "accepted: a whole number from 0 to 10")
        #expect(
            refusal(head + "  - do: policy resend-on launch,reboot\n")
                == "s.yaml:5:26: bad value 'launch,reboot' for policy key 'resend-on'; accepted: "
                + "a list of launch, login, network, purchase (comma-separated), or none")
    }

    @Test func unknownPreset() {
        #expect(
            refusal("format: 1\ntitle: t\npolicy: paranoid\nsteps: []\n")
                == "s.yaml:3:9: unknown preset 'paranoid'; presets are: "
                + PolicyPreset.allCases.map(\.rawValue).joined(separator: ", "))
        #expect(
            refusal(head + "  - do: policy preset strict\n")
                == "s.yaml:5:23: unknown preset 'strict'; presets are: "
                + PolicyPreset.allCases.map(\.rawValue).joined(separator: ", "))
    }

    @Test func badDuration() {
        #expect(
            refusal(head + "  - after: 5 minutes\n    do: crash\n")
                == "s.yaml:5:12: bad duration '5 minutes' for 'after'; a duration is a whole "
                + "number and a unit: 250ms, 3s, 5m, 2h, 45d")
        #expect(
            refusal(head + "  - do: wait 3sec\n")
                == "s.yaml:5:14: bad duration '3sec' for 'wait'; a duration is a whole "
                + "number and a unit: 250ms, 3s, 5m, 2h, 45d")
    }

    @Test func stepWithTwoTriggers() {
        #expect(
            refusal(head + "  - at: 1s\n    when: charged\n    do: crash\n")
                == "s.yaml:6:5: step has two triggers, 'at' and 'when'; a step has at most one "
                + "of: at, after, when")
    }

    @Test func stepWithoutDo() {
        #expect(
            refusal(head + "  - say: hello\n")?.hasPrefix(
                "s.yaml:5:5: step has no 'do'; every step needs a command: buy, open-store,") == true)
    }

    @Test func withinWithoutWhen() {
        #expect(
            refusal(head + "  - after: 1s\n    within: 5s\n    do: crash\n")
                == "s.yaml:6:5: 'within' is only allowed in a step with 'when'")
    }

    @Test func atEarlierThanThePreviousStep() {
        #expect(
            refusal(
                head + "  - at: 1m\n    do: crash\n  - after: 30s\n    do: launch\n"
                    + "  - at: 80s\n    do: settle\n")
                == "s.yaml:9:9: 'at: 80s' is earlier than the step at line 7, which ends at 90s at "
                + "the earliest; 'at' counts from the start of the run")
    }

    @Test func unknownEvent() {
        #expect(
            refusal(head + "  - when: paid\n    do: crash\n")
                == "s.yaml:5:11: unknown event 'paid'; events are: "
                + TriggerEvent.allCases.map(\.rawValue).joined(separator: ", "))
    }

    @Test func unknownStepKey() {
        #expect(
            refusal(head + "  - do: crash\n    note: x\n")
                == "s.yaml:6:5: unknown step key 'note'; a step has: at, after, when, within, do, say")
    }

    @Test func emptyCommand() {
        #expect(
            refusal(head + "  - do: \"\"\n")?.hasPrefix(
                "s.yaml:5:9: 'do' is empty; commands are: buy, open-store,") == true)
    }

    @Test func unknownCommand() {
        #expect(
            refusal(head + "  - do: explode\n")
                == "s.yaml:5:9: unknown command 'explode'; commands are: "
                + CommandSpec.words.joined(separator: ", "))
    }

    @Test func unknownProduct() {
        #expect(
            refusal(head + "  - do: buy coins_999\n")
                == "s.yaml:5:13: unknown product 'coins_999'; products are: coins_100, coins_550, no_ads, pro_monthly, plus_monthly, pro_yearly"
        )
        #expect(
            refusal(head + "  - do: \"buy coins_999\"\n")
                == "s.yaml:5:14: unknown product 'coins_999'; products are: coins_100, coins_550, no_ads, pro_monthly, plus_monthly, pro_yearly"
        )
        // A file with Windows line ends points at the same word (it was placed at the
        // value's start: "\r\n" is one character, and the lines were split by characters).
        let crlf = (head + "  - do: buy coins_999\n").replacingOccurrences(of: "\n", with: "\r\n")
        #expect(
            refusal(crlf)
                == "s.yaml:5:13: unknown product 'coins_999'; products are: coins_100, coins_550, no_ads, pro_monthly, plus_monthly, pro_yearly"
        )
    }

    @Test func unknownRoute() {
        #expect(
            refusal(head + "  - do: drop-next-request login\n")
                == "s.yaml:5:27: unknown route 'login'; routes are: "
                + Route.allCases.map(\.rawValue).joined(separator: ", "))
    }

    @Test func unknownFailReason() {
        #expect(
            refusal(head + "  - do: fail-next-payment fraud\n")
                == "s.yaml:5:27: unknown reason 'fraud' for 'fail-next-payment'; reasons are: "
                + CommandSpec.failReasons.joined(separator: ", "))
    }

    @Test func switchOtherThanOnOrOff() {
        #expect(
            refusal(head + "  - do: network down\n")
                == "s.yaml:5:17: 'network' takes on or off, not 'down'")
    }

    @Test func missingArgument() {
        #expect(
            refusal(head + "  - do: buy\n")
                == "s.yaml:5:12: 'buy' is missing an argument; write: buy PRODUCT [offer OFFER]")
    }

    @Test func extraArgument() {
        #expect(
            refusal(head + "  - do: crash hard\n")
                == "s.yaml:5:15: unexpected 'hard' after 'crash'; write: crash")
    }

    @Test func unknownExpectKey() {
        #expect(
            refusal(head + "  - do: crash\nexpect:\n  refunds: 1\n")
                == "s.yaml:7:3: unknown expect key 'refunds'; expect keys are: "
                + Expectations.table.map(\.key).joined(separator: ", "))
    }

    @Test func unknownAnomalyKey() {
        #expect(
            refusal(head + "  - do: crash\nexpect:\n  anomalies:\n    - {type: lost-order, n: 1}\n")
                == "s.yaml:8:26: unknown anomaly key 'n'; an anomaly has: type, status, count")
    }

    @Test func unknownAnomalyType() {
        #expect(
            refusal(head + "  - do: crash\nexpect:\n  anomalies:\n    - {type: lost-coins}\n")
                == "s.yaml:8:14: unknown anomaly type 'lost-coins'; types are: "
                + AnomalyType.allCases.map(\.rawValue).joined(separator: ", "))
    }

    @Test func unknownAnomalyStatus() {
        #expect(
            refusal(
                head
                    + "  - do: crash\nexpect:\n  anomalies:\n    - {type: lost-order, status: done}\n")
                == "s.yaml:8:34: unknown anomaly status 'done'; statuses are: "
                + AnomalyStatus.allCases.map(\.rawValue).joined(separator: ", "))
    }
}

@Suite struct DurationLimitTests {
    @Test func durationLongerThanFourHundredDays() {
        #expect(
            refusal(head + "  - do: wait 401d\n")
                == "s.yaml:5:14: duration '401d' for 'wait' is too long; at most 400d "
                + "(400 days of virtual time)")
        #expect(
            refusal(head + "  - after: 100000000h\n    do: crash\n")
                == "s.yaml:5:12: duration '100000000h' for 'after' is too long; at most 400d "
                + "(400 days of virtual time)")
        #expect(refusal(head + "  - do: wait 400d\n") == nil)
        #expect(refusal(head + "  - do: wait 365d\n") == nil)
    }
}
