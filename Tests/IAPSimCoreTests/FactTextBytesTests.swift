import Testing

@testable import IAPSimCore

/// `Fact.text` written piece by piece into bytes (`FactTextBytes`, the `--log` export's fast
/// path): each piece as the string interpolation it replaced wrote it, and whole lines as
/// the transcript has always shown them (the oracle's goldens hold every shipped scenario's).
@Suite struct FactTextBytesTests {
    static func written(_ write: (FactTextBytes) -> Void) -> String {
        let bytes = FactTextBytes(capacity: 1)
        write(bytes)
        return bytes.text
    }

    /// Every length a short copy takes its own way (1, 2-3, 4-7, 8-16, longer): exactly the
    /// `n` bytes, and nothing past them.
    @Test func aShortCopyCopiesExactlyItsBytes() {
        let source: [UInt8] = (0..<40).map { UInt8($0 + 1) }
        for n in 0...40 {
            var target = [UInt8](repeating: 0xEE, count: 48)
            source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in copyShortBytes(from.baseAddress!, n, to: to.baseAddress!)
                }
            }
            #expect(Array(target[..<n]) == Array(source[..<n]), "n = \(n)")
            #expect(target[n...].allSatisfy { $0 == 0xEE }, "n = \(n)")
        }
    }

    @Test func numbersAreWrittenAsStringWritesThem() {
        let numbers = [0, 1, 9, 10, 99, 100, 12_345, 1_000_000_000_001, -1, -10, .max, .min, .max - 1, .min + 1]
        for n in numbers + (0..<19).map({ Int(pow10: $0) }) + (1..<19).map({ Int(pow10: $0) - 1 }) {
            #expect(Self.written { $0.write(number: n) } == String(n))
        }
    }

    /// The short token: a UUID's first 8 characters and "…" by its bytes; anything that is
    /// not plain ASCII counted in characters, as `Fact.short` counts them.
    @Test func aShortTokenIsWhatShortSays() {
        let fact = Fact.replayUnavailable
        let tokens: [String?] = [
            nil, "", "abc", "12345678", "123456789", "0444db3f-6038-4528-a75d-426c5f198db3", "éééééééééé",
            "abcdefgh\u{301}xyz", "abcdefg\r\nxyz", "abcdefgh\r\nxyz", "a\u{1F1EB}\u{1F1F7}bcdefghij", "\t23456789",
        ]
        for token in tokens {
            #expect(Self.written { $0.write(short: token) } == fact.short(token), "\(String(describing: token))")
        }
    }

    /// Lines written in pieces, in the words the interpolation wrote.
    @Test func linesWrittenInPiecesReadAsBefore() {
        let expected: [(Fact, String)] = [
            (
                .messageSent(id: 7, route: .recharge, direction: .request, bytes: 512, sender: .attacker),
                "#7 recharge request sent (512 B, attacker)"
            ),
            (
                .messageSent(id: 8, route: .order, direction: .response, bytes: 0, sender: .app),
                "#8 order response sent (0 B)"
            ),
            (
                .messageUnclaimed(id: 9, route: .verify, direction: .response, latencyMs: 80),
                "#9 verify response arrived after 80ms to a receiver that is gone: lost"
            ),
            (
                .coinsCredited(
                    user: "bob", coins: 0, product: "pro", txn: "1", order: nil, sender: .attacker, via: .firstDelivery),
                "pro unlocked to bob for 1 (order -) [attacker]"
            ),
            (
                .coinsCredited(user: "a", coins: -5, product: "c", txn: "2", order: "o2", sender: .app, via: .replay),
                "c unlocked to a for 2 (order o2)"
            ),
            (
                .transactionsDelivered(txns: ["1", "2"], redelivery: true),
                "paymentQueue(_:updatedTransactions:) [1, 2] (redelivery)"
            ),
            (
                .transactionsDelivered(txns: (1...101).map(String.init), redelivery: false),
                "paymentQueue(_:updatedTransactions:) [101 ids: 1, ..., 101]"
            ),
            (
                .paymentAdded(txn: "3", product: "p", applicationUsername: nil, user: "u", order: nil),
                "SKPaymentQueue.add(SKPayment(p, applicationUsername: nil)) -> 3 [u]"
            ),
            (
                .purchaseStarted(txn: "4", product: "p", appAccountToken: nil, user: "u", order: "o"),
                "p.purchase(options: []) [u, order o]"
            ),
            (
                .jwsChecked(txn: "5", signer: .forger, verified: false),
                "JWS of 5 decoded without verifying (signed by forger)"
            ),
            (.receiptVerified(status: -3, entries: 2), "verifyReceipt: -3 \(VerifyStatus.words(-3)), 2 in_app"),
            (
                .rechargeSent(txn: "6", order: nil, user: "u", reason: .immediateRetry(2), forDelivered: nil),
                "POST /recharge 6 order - uid u (immediate retry 2)"
            ),
        ]
        for (fact, line) in expected { #expect(fact.text == line) }
    }
}

extension Int {
    fileprivate init(pow10 n: Int) { self = (0..<n).reduce(1) { value, _ in value * 10 } }
}
