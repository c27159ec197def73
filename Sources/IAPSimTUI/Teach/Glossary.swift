import IAPSimCore

/// The in-app glossary (`w`): built from the core's own tables (the anomaly types and their
/// meaning, the statuses, every policy key with its help and values), so that it says what
/// `run`, the inspector and the policy panel say.
enum Glossary {
    /// What each status means (the auditor's four words, as docs/world.md defines them).
    static func meaning(_ status: AnomalyStatus) -> String {
        switch status {
        case .open: return "something in the system can still make it right (a retry, a redelivery)"
        case .resolved: return "made right: the user got what was paid for, once"
        case .blocked: return "an attack or a bad request refused, no money lost"
        case .permanent: return "nothing left in the system will make it right: support must step in"
        }
    }

    /// The names Chinese-speaking teams use for the first four types, and for promotion abuse
    /// (薅羊毛, "fleecing the sheep": discounts taken by those they are not for).
    static func chinese(_ type: AnomalyType) -> String? {
        switch type {
        case .lostOrder: return "掉单"
        case .missedOrder: return "漏单"
        case .replayFraud: return "刷单"
        case .duplicateReceipt: return "订单重复"
        case .promoIneligible: return "薅羊毛"
        case .doubleCredit, .wrongAccount, .refundUnclawed, .refundOverclawed, .ackedNotCredited,
            .ledgerMismatch, .accessAfterEnd, .accessAfterRevoke, .renewalUnserved, .graceCut:
            return nil
        }
    }

    /// StoreKit's words the panels use, in the words of `world`.
    static func terms(_ world: StoreKitWorld) -> [(String, String)] {
        let common: [(String, String)] = [
            ("order o2", "the merchant server's record of one purchase, made before paying"),
            ("credited", "the merchant server added the coins (or the entitlement) to an account"),
            ("grace", "how long the auditor waits for a charge to be credited before it calls it lost"),
            ("STUCK", "a pending receipt that no mechanism of the policy will ever send again"),
            ("(attacker)", "an order the attacker created, to pass an old receipt off as new"),
            ("REFUND", "Apple gave the money back; clawback takes the coins back (server-clawback)"),
        ]
        if world == .two {
            return [
                ("purchase()", "Product.purchase(options:): buys, and returns the signed transaction"),
                ("Transaction.updates", "the listener that gets transactions purchase() did not return"),
                ("finish()", "Transaction.finish(): StoreKit stops delivering it"),
                ("appAccountToken", "a UUID the app puts on the purchase; the server binds the order with it"),
                ("JWS", "jwsRepresentation: the signed transaction the app sends to the server"),
            ] + common
        }
        return [
            ("SKPaymentQueue", "StoreKit's queue of payments; it redelivers until finished"),
            ("observer", "paymentQueue(_:updatedTransactions:): where the app hears of transactions"),
            ("finishTransaction", "tells StoreKit the app is done; until then it redelivers"),
            ("applicationUsername", "a string the app puts on the payment (here: the order's token)"),
            ("receipt", "the App Store's signed list of purchases, verified with verifyReceipt"),
        ] + common
    }

    static func lines(world: StoreKitWorld, glyphs: Glyphs) -> [Line] {
        let key = Style(.key, bold: true), title = Style(.title, bold: true)
        var out: [Line] = [[Span("Anomaly types (what the Auditor finds)", title)]]
        for type in AnomalyType.allCases {
            let name = type.rawValue + (chinese(type).map { " (\($0))" } ?? "")
            out.append([Span(TextWidth.pad(name, to: 30), key), Span(UIModel.plain(type.meaning(in: world)))])
        }
        out += [[], [Span("Statuses", title)]]
        for status in AnomalyStatus.allCases {
            out.append([Span(TextWidth.pad(status.rawValue, to: 30), key), Span(meaning(status))])
        }
        out += [[], [Span(world == .two ? "StoreKit 2 words" : "StoreKit words", title)]]
        for (term, what) in terms(world) { out.append([Span(TextWidth.pad(term, to: 30), key), Span(what)]) }
        out += [[], [Span("Policy keys (p changes them live)", title)]]
        for k in PolicyKey.shown(in: world) {
            out.append([
                Span(TextWidth.pad(k.rawValue, to: 30), key),
                Span(UIModel.plain(k.help)),
                Span("  (" + k.choices.joined(separator: " \(glyphs.sep) ") + ")", Style(.dim)),
            ])
        }
        return out
    }
}
