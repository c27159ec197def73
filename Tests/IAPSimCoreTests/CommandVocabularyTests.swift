import Testing

@testable import IAPSimCore

/// The command table is the vocabulary: every command reads back from its own text, every
/// word has one entry, and explore's wheel is laid out without gaps or overlaps.
@Suite struct CommandVocabularyTests {
    static let samples: [Command] = [
        .buy(product: "coins_550"), .openStore, .closeStore, .crash, .launch, .uninstall,
        .login(user: "bob"), .logout, .network(on: false), .network(on: true),
        .dropNextRequest(.verify), .dropNextResponse(.recharge), .latency(.order, 2_000),
        .storeOutage(on: true), .failNextPayment(.network), .failNextPaymentUnfinished,
        .interruptNextPayment, .askToBuy(on: true), .approve, .decline, .replay, .forge(product: "coins_100"),
        .setPolicy(.observer, "launch"), .setPreset(.naive), .wait(90_000), .settle,
        .background, .foreground, .storeStatus(21_002), .storeStatus(0),
        .serverOutage(on: true), .serverOutage(on: false), .refund(txn: nil), .refund(txn: "1000000000001"),
        .spend(user: "alice", coins: 80), .refund(txn: nil, percent: 40), .refundRequest(txn: nil),
        .refundDecline(txn: "1000000000001"), .refundReverse(txn: nil),
        .forge(product: "coins_550", environment: "Xcode"),
        .storeStatus(21_009),
    ]

    @Test func everyCommandReadsBackFromItsText() throws {
        for command in Self.samples {
            let read = try Command.read(command.scenarioText, users: ["alice", "bob"])
            #expect(read == command, "\(command.scenarioText)")
            #expect(command.scenarioText.hasPrefix(command.spec.word))
        }
        #expect(Set(Self.samples.map(\.spec.word)) == Set(CommandSpec.words))
    }

    @Test func everyWordHasOneEntry() {
        #expect(Set(CommandSpec.words).count == CommandSpec.all.count)
    }

    @Test func onlyFaultsAreFaults() {
        let faults = Self.samples.filter(\.isFault).map(\.scenarioText)
        #expect(
            faults == [
                "crash", "network off", "drop-next-request verify", "drop-next-response recharge",
                "latency order 2s", "store-outage on", "fail-next-payment network",
                "fail-next-payment unfinished", "interrupt-next-payment", "store-status 21002",
                "server-outage on", "store-status 21009",
            ])
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
