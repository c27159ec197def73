import Testing

@testable import IAPSimCore

/// The command table is the vocabulary: every command reads back from its own text, every
/// word has one entry, and explore's wheel is laid out without gaps or overlaps.
@Suite struct CommandVocabularyTests {
    /// One sample or more per command word, each with whether it is a fault: a new command
    /// adds its rows here.
    static let table: [(command: Command, fault: Bool)] = [
        (.buy(product: "coins_550"), false), (.openStore, false), (.closeStore, false), (.crash, true),
        (.launch, false), (.uninstall, false), (.login(user: "bob"), false), (.logout, false),
        (.network(on: false), true), (.network(on: true), false), (.dropNextRequest(.verify), true),
        (.dropNextResponse(.recharge), true), (.latency(.order, 2_000), true), (.storeOutage(on: true), true),
        (.failNextPayment(.network), true), (.failNextPaymentUnfinished, true),
        (.interruptNextPayment, true), (.askToBuy(on: true), false), (.approve, false), (.decline, false),
        (.replay, false), (.forge(product: "coins_100"), false), (.setPolicy(.observer, "launch"), false),
        (.setPreset(.naive), false), (.wait(90_000), false), (.settle, false), (.heal, false), (.background, false),
        (.foreground, false), (.storeStatus(21_002), true), (.storeStatus(0), false),
        (.serverOutage(on: true), true), (.serverOutage(on: false), false), (.refund(txn: nil), false),
        (.serverAPIFault(.fail(count: 2, code: 5_000_001)), true),
        (.serverAPIFault(.fail(count: 1, code: 4_040_010)), true),
        (.serverAPIFault(.fail(count: 0, code: 5_000_001)), false),
        (.serverAPIFault(.slow(3_000)), true), (.serverAPIFault(.slow(0)), false),
        (.serverAPIFault(.outage(true)), true), (.serverAPIFault(.outage(false)), false),
        (.refund(txn: "1000000000001"), false), (.spend(user: "alice", coins: 80), false),
        (.refund(txn: nil, percent: 40), false), (.refundRequest(txn: nil), false),
        (.refundDecline(txn: "1000000000001"), false), (.refundReverse(txn: nil), false),
        (.forge(product: "coins_550", environment: "Xcode"), false), (.storeStatus(21_009), true),
        (.buy(product: "pro_monthly"), false), (.billingFail(on: true), true), (.billingFail(on: false), false),
        (.autoRenew(on: false), true), (.autoRenew(on: true), false), (.changePlan(product: "plus_monthly"), false),
        (.delayNextNotification(2 * 86_400_000), true), (.gracePeriod(16 * 86_400_000), false),
        (.gracePeriod(nil), false), (.gracePeriod(3 * 86_400_000), false), (.gracePeriod(28 * 86_400_000), false),
        (.priceIncrease(product: "pro_monthly", cents: 699, consent: true), true),
        (.priceIncrease(product: "pro_monthly", cents: 550, consent: false), false), (.consentToPriceIncrease, false),
        (.subscription(.deferMessages(true)), false), (.subscription(.deferMessages(false)), false),
        (.joinFamily("kid"), false), (.leaveFamily, false), (.familyShare(on: false), true),
        (.familyShare(on: true), false), (.subscription(.redeemCode("WELCOMEBACK")), false),
        (.subscription(.redeemCode("WELCOMEBACK-3")), false),
    ]
    static let samples = table.map(\.command)

    @Test func everyCommandReadsBackFromItsText() throws {
        for command in Self.samples {
            let read = try Command.read(command.scenarioText, users: ["alice", "bob"], catalog: .withOfferCode)
            #expect(read == command, "\(command.scenarioText)")
            #expect(command.scenarioText.hasPrefix(command.spec.word))
        }
        #expect(Set(Self.samples.map(\.spec.word)) == Set(CommandSpec.words))
    }

    @Test func everyWordHasOneEntry() {
        #expect(Set(CommandSpec.words).count == CommandSpec.all.count)
    }

    @Test func onlyFaultsAreFaults() {
        for (command, fault) in Self.table {
            #expect(command.isFault == fault, "\(command.scenarioText)")
        }
        #expect(Self.table.contains { $0.fault } && Self.table.contains { !$0.fault })
    }

    @Test func exploresWheelHasOneSlotPerPlaceAndTwentyTwoParts() {
        #expect(CommandSpec.wheel.map(\.slot) == Array(0..<CommandSpec.wheel.count))
        #expect(CommandSpec.wheelSize == 22)
    }

    @Test func anUnknownWordIsRefusedWhereItStands() {
        #expect(throws: CommandError(offset: 2, problem: .unknownCommand("fly"))) {
            try Command.read("  fly away", users: ["alice"])
        }
    }
}
