import IAPSimCore
import IAPSimScenario

/// One lesson of `iapsim learn`: an anomaly type, the naive file that shows it, the
/// hardened file that fixes it, and the question asked before the step that decides it.
package struct Lesson: Sendable, Hashable {
    package var type: AnomalyType
    package var naive: ScenarioFile
    package var hardened: ScenarioFile
    /// The 0-based step before which the question is asked.
    package var askBefore: Int
    package var question: String

    package init(type: AnomalyType, naive: ScenarioFile, hardened: ScenarioFile, askBefore: Int, question: String) {
        self.type = type
        self.naive = naive
        self.hardened = hardened
        self.askBefore = askBefore
        self.question = question
    }

    /// The tour's plan: file names and questions, one row per anomaly type, in teaching order.
    package static let plan: [(type: AnomalyType, naive: String, hardened: String, askBefore: Int, question: String)] =
        [
            (
                .lostOrder, "lost-order-crash-at-charge-naive.yaml", "lost-order-crash-at-charge-hardened.yaml", 2,
                "The App Store charged Alice, and the app died before its observer heard of it. "
                    + "She opens the app again a minute later. Will her 100 coins arrive?"
            ),
            (
                .missedOrder, "missed-order-request-lost-naive.yaml", "missed-order-offline-hardened.yaml", 2,
                "Alice buys 100 coins. This app calls finishTransaction at once, and its POST /recharge is "
                    + "about to be lost in a tunnel. Will anything send that receipt again?"
            ),
            (
                .replayFraud, "replay-fraud-naive.yaml", "replay-fraud-blocked-hardened.yaml", 1,
                "Mallory bought 100 coins honestly. Now, through a proxy, she sends the same receipt again "
                    + "with a fresh order. The receipt is genuine: will the server credit it a second time?"
            ),
            (
                .duplicateReceipt, "duplicate-receipt-unfinished-failure-naive.yaml",
                "duplicate-receipt-token-match-hardened.yaml", 2,
                "Alice cancelled the purchase sheet: her payment failed, and this app never finishes a failed "
                    + "transaction, so it stays in the queue. She buys again. Which transaction will the app send "
                    + "with the new order?"
            ),
            (
                .doubleCredit, "double-credit-crash-before-finish-naive.yaml", "double-credit-prevented-hardened.yaml",
                2,
                "Alice's POST /recharge has left, and the app died before finishTransaction. She reopens the "
                    + "app and opens the store, where StoreKit delivers the unfinished transaction again. "
                    + "What will the server do with it?"
            ),
            (
                .wrongAccount, "wrong-account-switch-before-delivery-naive.yaml",
                "wrong-account-order-owner-hardened.yaml",
                4,
                "Alice paid, the app died, and now Bob logs in on the same phone before StoreKit redelivers. "
                    + "Who will get the coins Alice paid for?"
            ),
            (
                .refundUnclawed, "server-refund-unclawed-naive.yaml", "server-refund-clawed-back-hardened.yaml", 2,
                "Apple is about to refund Alice's purchase. Her coins are on the merchant server. "
                    + "Will anyone take them back?"
            ),
            (
                .graceCut, "sub-grace-cut-naive.yaml", "sub-grace-cut-hardened.yaml", 4,
                "Alice subscribes to Pro monthly, and her card will fail at the renewal. This app has a "
                    + "16-day billing grace period: Apple keeps retrying, and keeps her entitled meanwhile. "
                    + "Will the server let her in during those days?"
            ),
        ]
}

/// Where a lesson stands: played up to the question, asked, its anomaly inspected, or
/// shown beside the fix.
package enum LessonStage: Sendable, Hashable {
    case playing, asked, inspecting, comparing
}

/// The guided tour of `iapsim learn`.
package struct Tour: Sendable, Hashable {
    package var lessons: [Lesson]
    package var index = 0
    package var stage = LessonStage.playing

    package init(lessons: [Lesson]) { self.lessons = lessons }

    package var lesson: Lesson { lessons[index] }
}
