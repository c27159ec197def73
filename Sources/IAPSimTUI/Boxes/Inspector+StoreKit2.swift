import IAPSimCore

/// The inspectors of a StoreKit 2 run: a transaction shows the signed transaction (the JWS
/// payload as the core's `SignedTransaction` has it, and who signed it) where StoreKit 1
/// shows the receipt; an anomaly names the JWS it was about, replayed or forged.
extension Inspector {
    var worldWords: WorldWords { WorldWords(sim.policy.storekit) }

    func storeKit2Transaction(_ t: StoreTransaction) -> [Line] {
        var out: [Line] = [
            [
                Span(t.id + " ", Style(bold: true)), Span(t.productId + " "),
                Span(worldWords.state(t, returned: WorldWords.returnedSuccess(sim)), UIStyle.state(t.state)),
                Span(worldWords.finishedWords(t), Style(.dim)),
            ],
            field(
                "appAccountToken",
                t.appAccountToken
                    ?? "none (purchase() without .appAccountToken: the server cannot bind the order)"),
            field("order", orderOf(t.id).map(orderWords) ?? "(none)"),
            heading("history"),
        ]
        for e in sim.log where storeKit2History(e.fact, of: t.id) {
            out.append([
                Span("  " + DurationText.clock(e.time) + " ", Style(.dim)),
                Span(PanelContent.text(e.fact, in: .two, prices: sim.config.catalog.settings)),
            ])
        }
        out.append(heading("money"))
        out += money(t.id)
        out += signed(t)
        return out
    }

    /// Whether `fact` is part of the story of transaction `id` in StoreKit 2.
    func storeKit2History(_ fact: Fact, of id: String) -> Bool {
        switch fact {
        case .purchaseStarted(id, _, _, _, _), .purchaseReturned(id, _, _), .purchaseCompletedOutsideApp(id, _, _, _),
            .transactionUpdated(id, _, _), .paymentCharged(id, _, _), .finishCalled(id), .transactionFinished(id),
            .deferredExpired(id):
            return true
        case .updatesEmitted(let txns, _), .unfinishedSwept(let txns): return txns.contains(id)
        case .transactionSigned(let s): return s.transactionId == id
        default: return false
        }
    }

    /// Every signed copy of `id` the run made, oldest first (each delivery signs anew).
    func signedCopies(_ id: String) -> [SignedTransaction] {
        sim.log.compactMap { e in
            if case .transactionSigned(let s) = e.fact, s.transactionId == id { return s }
            if case .forgeryPrepared(let s) = e.fact, s.transactionId == id { return s }
            return nil
        }
    }

    /// The newest signed copy's payload fields, and when each copy was signed.
    func signed(_ t: StoreTransaction) -> [Line] {
        let copies = signedCopies(t.id)
        guard let s = copies.last else {
            let why =
                t.state == .failed
                ? "none: a failed purchase() leaves no transaction to sign"
                : "not signed yet: StoreKit signs a transaction each time it delivers it"
            return [heading("the signed transaction (jwsRepresentation)"), [Span("  " + why, Style(.dim))]]
        }
        var out: [Line] = [heading("the signed transaction (jwsRepresentation), newest copy")]
        out += payload(s)
        // Refunded after the newest copy the app saw: the REFUND notification's copy has it.
        if s.revocationDate == nil, let at = t.refundedAt {
            out.append(
                field(
                    "  revocationDate", "\(DurationText.clock(at)) (in the copy the REFUND notification carried)",
                    Style(.warn, bold: true)))
        }
        let times = copies.map { DurationText.clock($0.signedDate) }.joined(separator: ", ")
        out.append(
            field(
                "  copies",
                copies.count == 1
                    ? "1, signed at \(times)"
                    : "\(copies.count), signed at \(times): the same transactionId, new bytes each time (dedup on transactionId)"
            ))
        return out
    }

    func payload(_ s: SignedTransaction) -> [Line] {
        let signer =
            s.signer == .appStore
            ? "the App Store (its chain ends at Apple's root)"
            : "a forger (a key outside Apple's chain: a verifying server refuses it)"
        return [
            field("  transactionId", s.transactionId),
            field("  originalTransactionId", s.originalTransactionId),
            field("  productId", s.productId),
            field("  type", s.typeName),
            field("  purchaseDate", DurationText.clock(s.purchaseDate)),
            field("  signedDate", DurationText.clock(s.signedDate)),
            field("  price", "\(s.price) (milliunits: \(formatMoney(s.price / 10)))"),
            field("  appAccountToken", s.appAccountToken ?? "absent"),
            field("  signed by", signer, s.signer == .appStore ? Style(.good) : Style(.bad, bold: true)),
        ]
            + (s.revocationDate.map { [field("  revocationDate", DurationText.clock($0), Style(.warn, bold: true))] }
                ?? [])
    }

    /// For a replay-fraud anomaly: which JWS was sent with the fresh order, replayed or forged.
    func jwsLine(_ x: Anomaly) -> Line? {
        guard worldWords.storeKit2, x.type == .replayFraud, let id = x.txn else { return nil }
        if let forged = signedCopies(id).last, forged.signer == .forger {
            return field(
                "with the fresh order",
                "a forged JWS: \(id) for \(forged.productId), signed by a key outside Apple's chain, never charged",
                Style(.bad, bold: true))
        }
        let at = signedCopies(id).last.map { ", signed by the App Store at \(DurationText.clock($0.signedDate))" } ?? ""
        return field(
            "with the fresh order", "a replayed JWS: the genuine jwsRepresentation of \(id)\(at)",
            Style(.bad, bold: true))
    }
}
