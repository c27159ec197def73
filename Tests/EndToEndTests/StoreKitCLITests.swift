import Foundation
import Testing

/// A team's own StoreKit configuration file through the binary: `iapsim catalog`, the
/// `--storekit` and `--grants` flags of the commands that run a world, `storekit:` in a
/// scenario, and the one-line refusal of a bad file (exit 2).
@Suite struct StoreKitCLITests {
    static let game = "scenarios/dungeon.storekit"

    static func write(_ text: String, _ name: String) throws -> String {
        let path = CLI.temporaryFile(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func catalogPrintsOneLineAProductAsRead() throws {
        let result = try CLI.run(["catalog", Self.game])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.lines.first
                == "scenarios/dungeon.storekit: format version 4, 7 products, storefront GBR, prices in GBP")
        #expect(result.lines.contains("  gems_small       consumable      0.99      grants 1 gems_small"))
        #expect(
            result.lines.contains(
                "  pass_weekly      auto-renewable  1.99      group 21480001 (Dungeon Pass) level 1, every 1 week (P1W)  "
                    + "access while it renews, introductory offer: free trial for P3D"))
        #expect(
            result.lines.contains(
                "  guild_quarterly  auto-renewable  11.99     group 21480002 (Guild) level 1, every 3 months (P3M)  "
                    + "access while it renews"))
        #expect(result.lines.contains { $0.hasPrefix("  season_pass      non-renewing") })
        #expect(
            result.stdout.contains(
                "not modelled: non-renewing subscriptions' duration"))
        #expect(result.stdout.contains("pass_yearly: win-back offer yearly_comeback (pay up front 29.99 for P1Y"))
        #expect(!result.stdout.contains("introductory offer free"))
    }

    @Test func catalogWithoutAFileIsTheBuiltInOne() throws {
        let result = try CLI.run(["catalog"])
        #expect(result.status == 0)
        #expect(
            result.lines.first?.hasPrefix(
                "the built-in catalog (scenarios/iapsim.storekit): format version 3, 6 products") == true)
        #expect(result.lines.contains("  coins_100     consumable      0.99      grants 100 coins"))
        #expect(
            result.lines.contains(
                "  pro_yearly    auto-renewable  49.99     group pro (Pro) level 2, every 1 year (P1Y)  access while it renews"
            ))
    }

    /// Issue 49, item 3: the catalog says weekly subscriptions get 6 days of grace, and
    /// reports `_compatibilityTimeRate` the same way as a number or as a map keyed by version.
    @Test func catalogSaysWeeklyGraceAndReadsBothFormsOfTheCompatibilityTimeRate() throws {
        let text = try String(contentsOfFile: CLI.root.path + "/" + Self.game, encoding: .utf8)
        let graced = try Self.write(
            text.replacingOccurrences(
                of: "\"_billingGracePeriodEnabled\" : false", with: "\"_billingGracePeriodEnabled\" : true"),
            "graced.storekit")
        let result = try CLI.run(["catalog", graced])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "billing grace period 16 days (6 days for weekly subscriptions) unless a scenario's grace-period says"),
            "\(result.stdout)")
        var outputs: [[String]] = []
        for (rate, name) in [("{\"4\" : 6}", "map.storekit"), ("6", "number.storekit")] {
            // Without the file's `_timeRate` 0, which would win over the compatibility rate.
            let file = try Self.write(
                text.replacingOccurrences(of: "    ],\n    \"_timeRate\" : 0\n", with: "    ]\n")
                    .replacingOccurrences(
                        of: "\"settings\" : {", with: "\"settings\" : {\n    \"_compatibilityTimeRate\" : \(rate),"),
                name)
            let catalog = try CLI.run(["catalog", file])
            #expect(catalog.status == 0, "\(catalog.stderr)")
            let lines = catalog.lines.filter {
                $0.hasPrefix("listed: ") || $0.hasPrefix("not modelled: ") || $0.hasPrefix("honoured: ")
            }
            #expect(
                lines.first { $0.hasPrefix("listed: ") }?.contains("_compatibilityTimeRate 6 (oneSecondIsOneDay)")
                    == true,
                "\(lines)")
            #expect(lines.first { $0.hasPrefix("not modelled: ") }?.contains("TimeRate") == false, "\(lines)")
            // Apple's name of the rate, and what it makes of a period (a day is 1 second).
            #expect(
                catalog.stdout.contains(
                    "time rate oneSecondIsOneDay (a week lasts 7s, a month 30s, a year 6m5s; 16-day grace 16s, "
                        + "billing retry 1m)"), "\(catalog.stdout)")
            outputs.append(lines)
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func grantsFileMapsConsumablesToAUnit() throws {
        let grants = try Self.write("gems_small: 80 gems\ngems_chest: 1000 gems\n", "grants.yaml")
        defer { try? FileManager.default.removeItem(atPath: grants) }
        let result = try CLI.run(["catalog", Self.game, "--grants", grants])
        #expect(
            result.lines.contains("  gems_chest       consumable      9.99      grants 1000 gems"), "\(result.stdout)")
        let bad = try Self.write("remove_ads: 5 gems\n", "grants-bad.yaml")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let refused = try CLI.run(["catalog", Self.game, "--grants", bad])
        #expect(refused.status == 2)
        #expect(
            refused.stderr == "\(bad):1:1: grants: 'remove_ads' is non-consumable; only a consumable grants an amount\n"
        )
    }

    @Test func aBadFileIsOneLineAndExitTwoOnEveryCommand() throws {
        let bad = try Self.write(
            "{\n  \"products\" : [ { \"displayPrice\" : \"1,99\", \"productID\" : \"gems\", \"type\" : \"Consumable\" } ],\n"
                + "  \"version\" : { \"major\" : 3, \"minor\" : 0 }\n}\n", "bad.storekit")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let line =
            "\(bad):2:37: the price of \"gems\" is \"1,99\", not a price; a price is a decimal such as \"0.99\" or "
            + "\"1500\", at most two decimals, up to 1000000.00\n"
        let commands: [[String]] = [
            ["catalog", bad], ["run", "scenarios/ask-to-buy.yaml", "--storekit", bad],
            ["check", "scenarios/ask-to-buy.yaml", "--storekit", bad], ["explore", "--runs", "1", "--storekit", bad],
            ["matrix", "--runs", "1", "--storekit", bad], ["matrix", "--world", "2", "--storekit", bad],
            ["sandbox", "--storekit", bad], ["--storekit", bad],
            ["play", "scenarios/ask-to-buy.yaml", "--storekit", bad], ["serve", "--explore", "--storekit", bad],
        ]
        for arguments in commands {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.hasSuffix(line), "\(arguments): \(result.stderr)")
        }
    }

    @Test func shippedGameScenariosRunWithTheirCatalogInTheHeader() throws {
        let result = try CLI.run(["run", "scenarios/game-gems-crash-at-charge-hardened.yaml"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(
            result.lines.contains(
                "   catalog: scenarios/dungeon.storekit, 7 products, prices in GBP; not modelled: "
                    + "non-renewing subscriptions' duration (sold as unlocks), Family Sharing of one-time products"
            ))
        #expect(result.stdout.contains("+80 coins to alice"))
        let check = try CLI.run(["check", "scenarios"])
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func storekitFlagWinsOverTheBuiltInCatalog() throws {
        let scenario = try Self.write(
            "format: 1\ntitle: t\npolicy: sk2-hardened\nsteps:\n  - do: buy guild_quarterly\n  - do: wait 100d\n"
                + "expect:\n  renewals: 1\n", "quarterly.yaml")
        defer { try? FileManager.default.removeItem(atPath: scenario) }
        let without = try CLI.run(["run", "--quiet", scenario])
        #expect(
            without.status == 2 && without.stderr.contains("unknown product 'guild_quarterly'"), "\(without.stderr)")
        let with = try CLI.run(["run", "--quiet", scenario, "--storekit", Self.game])
        #expect(with.status == 0, "\(with.stdout)\(with.stderr)")
    }

    @Test func exploreAndMatrixBuyTheFilesProducts() throws {
        let out = CLI.temporaryFile("explore-storekit")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run([
            "explore", "--policy", "sk2-naive", "--runs", "200", "--seed", "3", "--storekit", Self.game, "--out", out,
        ])
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("catalog: \(Self.game), 7 products, prices in GBP"))
        let matrix = try CLI.run(["matrix", "--runs", "20", "--storekit", Self.game])
        #expect(matrix.status == 0, "\(matrix.stderr)")
        #expect(matrix.lines.contains { $0.hasPrefix("catalog: \(Self.game)") })
    }
}
