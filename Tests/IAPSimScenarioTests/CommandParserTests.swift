import IAPSimCore
import IAPSimScenario
import Testing

@Suite struct CommandParserTests {
    let parser = CommandParser(users: ["alice", "bob"], catalog: .withOfferCode)

    /// Every command string of docs/scenario-format.md's table, as written there.
    static let formatCommands: [(String, Command)] = [
        ("buy coins_100", .buy(product: "coins_100")),
        ("buy coins_550", .buy(product: "coins_550")),
        ("buy no_ads", .buy(product: "no_ads")),
        ("open-store", .openStore),
        ("close-store", .closeStore),
        ("crash", .crash),
        ("launch", .launch),
        ("uninstall", .uninstall),
        ("login bob", .login(user: "bob")),
        ("logout", .logout),
        ("network off", .network(on: false)),
        ("network on", .network(on: true)),
        ("drop-next-request order", .dropNextRequest(.order)),
        ("drop-next-request recharge", .dropNextRequest(.recharge)),
        ("drop-next-request verify", .dropNextRequest(.verify)),
        ("drop-next-response recharge", .dropNextResponse(.recharge)),
        ("latency verify 2s", .latency(.verify, 2_000)),
        ("latency order 250ms", .latency(.order, 250)),
        ("store-outage on", .storeOutage(on: true)),
        ("store-outage off", .storeOutage(on: false)),
        ("fail-next-payment", .failNextPayment(.cancelled)),
        ("fail-next-payment cancelled", .failNextPayment(.cancelled)),
        ("fail-next-payment network", .failNextPayment(.network)),
        ("fail-next-payment invalid", .failNextPayment(.invalid)),
        ("fail-next-payment unfinished", .failNextPaymentUnfinished),
        ("interrupt-next-payment", .interruptNextPayment),
        ("ask-to-buy on", .askToBuy(on: true)),
        ("ask-to-buy off", .askToBuy(on: false)),
        ("approve", .approve),
        ("decline", .decline),
        ("replay", .replay),
        ("policy preset naive", .setPreset(.naive)),
        ("policy resend-on launch,network", .setPolicy(.resendOn, "launch,network")),
        ("policy resend-on none", .setPolicy(.resendOn, "none")),
        ("policy observer store-screen", .setPolicy(.observer, "store-screen")),
        ("policy retry-interval off", .setPolicy(.retryInterval, "off")),
        ("policy retry-immediate 3", .setPolicy(.retryImmediate, "3")),
        ("policy server-dedup false", .setPolicy(.serverDedup, "false")),
        ("wait 5m", .wait(300_000)),
        ("settle", .settle),
        ("heal", .heal),
        ("server-api-fail 0", .serverAPIFault(.fail(count: 0, code: 5_000_001))),
        ("background", .background),
        ("foreground", .foreground),
        ("store-status 21007", .storeStatus(21_007)),
        ("policy resend-as current-user", .setPolicy(.resendAs, "current-user")),
        ("policy persist-when after-retries", .setPolicy(.persistWhen, "after-retries")),
        ("policy receipt fresh", .setPolicy(.receipt, "fresh")),
        ("forge coins_550", .forge(product: "coins_550")),
        ("policy sweep-unfinished true", .setPolicy(.sweepUnfinished, "true")),
        ("server-outage on", .serverOutage(on: true)),
        ("server-api-fail 2", .serverAPIFault(.fail(count: 2, code: 5_000_001))),
        ("server-api-fail 1 4040010", .serverAPIFault(.fail(count: 1, code: 4_040_010))),
        ("server-api-slow 3s", .serverAPIFault(.slow(3_000))),
        ("server-api-outage off", .serverAPIFault(.outage(false))),
        ("refund newest", .refund(txn: nil)),
        ("refund 1000000000002", .refund(txn: "1000000000002")),
        ("spend alice 80", .spend(user: "alice", coins: 80)),
        ("buy pro_monthly", .buy(product: "pro_monthly")),
        ("billing-fail on", .billingFail(on: true)),
        ("billing-fail off", .billingFail(on: false)),
        ("auto-renew off", .autoRenew(on: false)),
        ("auto-renew on", .autoRenew(on: true)),
        ("change-plan plus_monthly", .changePlan(product: "plus_monthly")),
        ("price-increase pro_monthly 6.99 consent", .priceIncrease(product: "pro_monthly", cents: 699, consent: true)),
        (
            "price-increase pro_monthly 5.5 no-consent",
            .priceIncrease(product: "pro_monthly", cents: 550, consent: false)
        ),
        ("consent", .consentToPriceIncrease),
        ("messages defer", .subscription(.deferMessages(true))),
        ("messages show", .subscription(.deferMessages(false))),
        ("delay-next-notification 2d", .delayNextNotification(2 * 86_400_000)),
        ("grace-period 16d", .gracePeriod(16 * 86_400_000)),
        ("grace-period off", .gracePeriod(nil)),
        ("join-family kid", .joinFamily("kid")),
        ("leave-family", .leaveFamily),
        ("family-share off", .familyShare(on: false)),
        ("redeem-code WELCOMEBACK", .subscription(.redeemCode("WELCOMEBACK"))),
        ("redeem-code WELCOMEBACK-12", .subscription(.redeemCode("WELCOMEBACK-12"))),
        ("policy server-reconcile 1h", .setPolicy(.serverReconcile, "1h")),
        ("policy server-notifications true", .setPolicy(.serverNotifications, "true")),
        ("refund newest percent 40", .refund(txn: nil, percent: 40)),
        ("refund 1000000000002 percent 100", .refund(txn: "1000000000002")),
        ("refund-request newest", .refundRequest(txn: nil)),
        ("refund-decline 1000000000001", .refundDecline(txn: "1000000000001")),
        ("refund-reverse newest", .refundReverse(txn: nil)),
        ("forge coins_100 environment Xcode", .forge(product: "coins_100", environment: "Xcode")),
        ("store-status 21009", .storeStatus(21_009)),
        ("policy server-clawback refunded-share", .setPolicy(.serverClawback, "refunded-share")),
        ("policy server-refund-reversed restore", .setPolicy(.serverRefundReversed, "restore")),
        ("policy server-consumption-answer true", .setPolicy(.serverConsumptionAnswer, "true")),
        ("policy server-history v1", .setPolicy(.serverHistory, "v1")),
        ("policy server-history-pages first", .setPolicy(.serverHistoryPages, "first")),
        ("policy server-verify claimed-environment", .setPolicy(.serverVerify, "claimed-environment")),
        ("policy report-app-transaction true", .setPolicy(.reportAppTransaction, "true")),
    ]

    /// The refund loop's arguments are checked, and `server-clawback` refuses the old
    /// true/false with the list of what it takes.
    @Test func refundPercentAndClawbackValuesAreChecked() {
        for bad in [
            "refund newest percent 0", "refund newest percent 101", "refund newest pct 40", "refund newest percent",
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try parser.parse(bad) }
        }
        for old in ["true", "false"] {
            #expect {
                try parser.parse("policy server-clawback \(old)")
            } throws: { error in
                "\(error)".contains("off, full, refunded-share")
            }
        }
    }

    /// `grace-period` takes App Store Connect's choices only, and says which.
    @Test func gracePeriodTakesAppStoreConnectsChoices() {
        for bad in ["grace-period 5d", "grace-period", "grace-period 16d 3d", "grace-period on"] {
            #expect(throws: (any Error).self, "\(bad)") { try parser.parse(bad) }
        }
        #expect {
            try parser.parse("grace-period 5d")
        } throws: { error in
            "\(error)".contains("off, 3d, 16d, 28d")
        }
    }

    @Test func everyCommandOfTheFormatParsesToItsCommand() throws {
        for (text, command) in Self.formatCommands {
            #expect(try parser.parse(text) == command, "\(text)")
        }
    }

    @Test func everyCommandWordOfTheFormatIsCovered() {
        let words = Set(Self.formatCommands.map { $0.0.split(separator: " ")[0] }.map(String.init))
        #expect(words == Set(CommandSpec.words))
    }

    @Test func scenarioTextParsesBackToTheSameCommand() throws {
        for (_, command) in Self.formatCommands {
            #expect(try parser.parse(command.scenarioText) == command)
        }
    }

    @Test func policyValuesAreKeptInTheirCanonicalSpelling() throws {
        #expect(
            try parser.parse("policy resend-on network, launch")
                == .setPolicy(.resendOn, "launch,network"))
        #expect(try parser.parse("policy retry-interval 60s") == .setPolicy(.retryInterval, "1m"))
    }

    @Test func extraSpacesBetweenWordsAreIgnored() throws {
        #expect(try parser.parse("  latency\tverify   2s ") == .latency(.verify, 2_000))
    }

    @Test func errorsPointAtTheOffendingWord() {
        func failure(_ text: String) -> CommandError? {
            do { _ = try parser.parse(text); return nil } catch { return error }
        }
        #expect(
            failure("buy coins_999")
                == CommandError(
                    offset: 4, problem: .unknownProduct("coins_999", products: Catalog.standard.allIds)))
        #expect(
            failure("latency verify")
                == CommandError(
                    offset: 14, problem: .missingArgument("latency", usage: "latency ROUTE DURATION")))
        #expect(
            failure("crash now")
                == CommandError(
                    offset: 6, problem: .extraArgument("crash", "now", usage: "crash")))
        #expect(
            failure("login carol")?.description
                == "unknown user 'carol'; users are: alice, bob")
        #expect(failure("")?.problem == .empty)
        #expect(failure("Crash")?.problem == .unknownCommand("Crash"))
    }
}
