import Foundation
import IAPSimCore
import IAPSimScenario
import Testing

/// Numbers, durations and names written to hurt: every number is held to its range before
/// any arithmetic (out of range is said with the range, never a crash or "malformed"), every
/// duration parses up to its limit in every unit and is "too long" past it, every interval
/// has a floor, and every shown name is escaped.
@Suite struct HostileNumberTests {
    static let head = "format: 1\ntitle: t\n"

    @Test func theNumberCheckNeverOverflowsAndNamesTheCause() {
        #expect(NumberCheck.integer("42", in: 0...100) == .success(42))
        #expect(NumberCheck.integer("-0", in: 0...100) == .success(0))
        #expect(NumberCheck.integer("-1", in: 0...100) == .failure(.outOfRange))
        #expect(NumberCheck.integer("101", in: 0...100) == .failure(.outOfRange))
        #expect(NumberCheck.integer(String(repeating: "9", count: 400), in: 0...Int.max) == .failure(.outOfRange))
        #expect(NumberCheck.integer("-9223372036854775808", in: Int.min...0) == .success(Int.min))
        #expect(NumberCheck.integer("-9223372036854775809", in: Int.min...0) == .failure(.outOfRange))
        for bad in ["", "-", "+1", "1e3", "inf", "nan", "0x10", " 1", "1.0", "١"] {
            #expect(NumberCheck.integer(bad, in: Int.min...Int.max) == .failure(.notANumber), "\(bad)")
        }
        #expect(NumberCheck.unsigned("18446744073709551615", in: 0...UInt64.max) == .success(.max))
        #expect(NumberCheck.unsigned("18446744073709551616", in: 0...UInt64.max) == .failure(.outOfRange))
        #expect(NumberCheck.unsigned("-5", in: 0...UInt64.max) == .failure(.outOfRange))
        #expect(NumberCheck.unsigned("-0", in: 0...UInt64.max) == .success(0))
        #expect(NumberCheck.rangeText(1...256) == "from 1 to 256")
    }

    @Test(arguments: [
        (
            "seed: 18446744073709551616\nsteps: []\n",
            "s.yaml:3:7: 'seed' is 18446744073709551616, out of range; it must be from 0 to 18446744073709551615"
        ),
        (
            "steps: []\nexpect: {charged: 99999999999999999999}\n",
            "s.yaml:4:19: 'charged' is 99999999999999999999, out of range; it must be from 0 to 9223372036854775807"
        ),
        (
            "steps: []\nexpect: {charged: -3}\n",
            "s.yaml:4:19: 'charged' is -3, out of range; it must be from 0 to 9223372036854775807"
        ),
        (
            "steps: []\nexpect: {money: {paid-not-delivered: 92233720368547758.07}}\n",
            "s.yaml:4:38: 'paid-not-delivered' is 92233720368547758.07, out of range; it must be from 0 to "
                + "1000000000.00"
        ),
        (
            "steps: []\nexpect: {credited: {alice: -99999999999999999999}}\n",
            "s.yaml:4:28: the balance of 'alice' is -99999999999999999999, out of range; it must be from "
                + "-9223372036854775807 to 9223372036854775807"
        ),
    ])
    func numbersOutOfRangeAreRefusedWithTheRange(body: String, message: String) {
        #expect(refusal(Self.head + body) == message)
    }

    @Test func minusZeroIsZero() throws {
        let scenario = try ScenarioParser.parse(
            text: Self.head + "steps: []\nexpect: {credited: {alice: -0}}\n", file: "s.yaml")
        #expect(scenario.expect.credited == ["alice": 0])
    }

    @Test func durationsParseInEveryUnitUpToTheLimit() throws {
        // 400 days, the limit, written in each unit; and 48h in milliseconds.
        for text in ["34560000000ms", "34560000s", "576000m", "9600h", "400d", "172800000ms"] {
            let scenario = try ScenarioParser.parse(text: Self.head + "steps:\n  - do: wait \(text)\n", file: "s.yaml")
            #expect(scenario.steps.count == 1, "\(text)")
        }
        for text in [
            "34560000001ms", "9601h", "401d", "999999999h", "99999999999999999999999h", "18446744073709551616ms",
        ] {
            let message = refusal(Self.head + "steps:\n  - do: wait \(text)\n") ?? ""
            #expect(message.contains("is too long") && message.contains("400d"), "\(text): \(message)")
            let within = refusal(Self.head + "steps:\n  - when: charged\n    within: \(text)\n    do: settle\n") ?? ""
            #expect(within.contains("too long") && within.contains("400d"), "\(text): \(within)")
        }
        #expect(DurationText.parse("99999999999999999999999h") == .max)
        #expect(DurationText.parse("1e3s") == nil)
    }

    @Test(arguments: ["retry-interval", "retry-max-interval", "server-reconcile"])
    func intervalsHaveAFloorOfOneSecondAndTheDurationLimit(key: String) throws {
        for short in ["1ms", "999ms", "0s"] {
            let message = refusal(Self.head + "policy: {preset: hardened, \(key): \(short)}\nsteps: []\n") ?? ""
            #expect(message.contains("\(short) is too short"), "\(key) \(short): \(message)")
            #expect(message.contains("1s to 720h"), "\(message)")
        }
        let long = refusal(Self.head + "policy: {preset: hardened, \(key): 721h}\nsteps: []\n") ?? ""
        #expect(long.contains("721h is too long (at most 720h)"), "\(long)")
        for fine in ["1s", "1000ms", "720h", "off"] {
            #expect(refusal(Self.head + "policy: {preset: hardened, \(key): \(fine)}\nsteps: []\n") == nil, "\(fine)")
        }
    }

    @Test func aConsumableIsNoEntitlement() {
        #expect(
            refusal(Self.head + "steps: []\nexpect: {entitlements: {alice: [coins_100]}}\n")
                == "s.yaml:4:33: 'coins_100' is a consumable: it is used up when delivered and never held, so "
                + "it cannot be an entitlement; the products that can be held: no_ads")
        #expect(refusal(Self.head + "steps: []\nexpect: {entitlements: {alice: [no_ads]}}\n") == nil)
    }

    /// A subscription named in `entitlements:` is refused with the key that holds it, not as a
    /// consumable; with a catalog that has no non-consumable, the refusal lists its products.
    @Test func aSubscriptionInEntitlementsPointsToSubscriptions() throws {
        let message = refusal(Self.head + "steps: []\nexpect: {entitlements: {alice: [pro_monthly]}}\n") ?? ""
        #expect(message.contains("'pro_monthly' is a subscription: use `subscriptions:`"), "\(message)")
        #expect(!message.contains("consumable"), "\(message)")
        #expect(message.contains("can hold: no_ads"), "\(message)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try String(
            contentsOf: root.appendingPathComponent("scenarios/dungeon.storekit"), encoding: .utf8
        ).replacingOccurrences(of: "\"type\" : \"NonConsumable\"", with: "\"type\" : \"Consumable\"")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-non-consumable.storekit").path
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let team =
            refusal(
                Self.head + "storekit: \(path)\nsteps: []\nexpect: {entitlements: {alice: [pass_weekly]}}\n") ?? ""
        #expect(team.contains("'pass_weekly' is a subscription: use `subscriptions:`"), "\(team)")
        #expect(team.contains("gems_small") && team.contains("pass_yearly"), "\(team)")
    }

    @Test func tooDeepYAMLIsRefusedInTheFormatsWords() {
        let message = refusal(Self.head + "steps: " + String(repeating: "[", count: 1_500) + "\n") ?? ""
        #expect(message.hasSuffix("lists and maps are nested more than 1000 deep; the limit is 1000"), "\(message)")
        #expect(!message.contains("yaml_"))
    }

    @Test func bidirectionalControlsAndRawBytesAreShownEscaped() {
        #expect(VisibleText.escaped("evil\u{202E}txt.yaml") == "evil\\u202Etxt.yaml")
        for scalar in ["\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{2066}", "\u{2069}"] {
            #expect(VisibleText.escaped("a\(scalar)b").hasPrefix("a\\u"), "\(scalar.unicodeScalars.first!.value)")
        }
        // Printable text, with its arrows and dashes, is left as it is.
        #expect(VisibleText.escaped("a → b — c") == "a → b — c")
        let name = FileName.fromBytes([0x61, 0xFF, 0x2E, 0xC3])
        #expect(FileName.bytes(name) == [0x61, 0xFF, 0x2E, 0xC3])
        #expect(VisibleText.escaped(name) == "a\\xFF.\\xC3")
        #expect(FileName.fromBytes(Array("plain é".utf8)) == "plain é")
        #expect(JSONLinesExport.jsonString("x\u{202E}y") == "\"x\\u202ey\"")
    }

    @Test func aTitleMadeFromATitleStaysWithinTheLimit() throws {
        let long = String(repeating: "t", count: ScenarioVocabulary.maxTitleLength)
        let title = ScenarioVocabulary.title(long, adding: " (played, with extra actions)")
        #expect(title.count == ScenarioVocabulary.maxTitleLength)
        #expect(title.hasSuffix("... (played, with extra actions)"))
        _ = try ScenarioParser.parse(text: "format: 1\ntitle: \(title)\nsteps: []\n", file: "s.yaml")
        #expect(ScenarioVocabulary.title("short", adding: " (x)") == "short (x)")
    }

    @Test func longIdListsAreAbbreviatedAndShortOnesWhole() {
        let few = (1...IdList.shownWhole).map(String.init)
        #expect(IdList.text(few) == few.joined(separator: ", "))
        let many = (1...(IdList.shownWhole + 1)).map(String.init)
        #expect(IdList.text(many) == "\(many.count) ids: 1, ..., \(many.count)")
    }
}
