/// The verdict's what-if (docs/world.md, "The rules"): an anomaly left `open` once the world has settled
/// may be one that every relaunch repeats (a refused pairing, say). It is tried on a copy of
/// the world: every fault healed, the app launched, the buyer logged in, the store screen
/// open, the app brought back to the foreground, settled. If the charge is still uncredited
/// there, the anomaly is permanent. The copy is discarded: nothing of it reaches the log.
extension Simulation {
    /// Runs the what-if for every open anomaly and writes the auditor's changes (to the log
    /// and to `written` unless it is nil). Call it once the world has settled.
    package mutating func concludeVerdict(into written: inout [LogEntry]?) {
        // Under serve a real backend cannot be copied (docs/serve.md, rule 20).
        if world.isExternal { return concludeExternally(into: &written) }
        letGracePeriodsEnd(into: &written)
        if !auditor.subscriberTimelines.isEmpty {
            // The timelines count (money, differences) up to the verdict's moment.
            var audit: [LogEntry] = []
            auditor.evaluateTimelines(now: world.now, &audit)
            for entry in audit { world.append(entry, into: &written) }
        }
        runServerChecksThatAct(into: &written)
        var buyers: [String] = []
        for a in auditor.anomalies where a.status == .open && !auditor.isTimelineAnomaly(a) {
            if let user = a.user, !buyers.contains(user) { buyers.append(user) }
        }
        var changes: [LogEntry] = []
        concludeTimelines(&changes)
        let armed = world.hasArmedFaults ? world.armedFaults : []
        for buyer in buyers {
            let copy = whatIf(buyer: buyer)
            for a in auditor.anomalies where a.status == .open && a.user == buyer {
                guard let txn = a.txn, let i = copy.auditor.ledger.index(of: txn) else { continue }
                if a.type == .refundUnclawed {
                    if !copy.auditor.ledger.charges[i].clawedBack {
                        let why =
                            Auditor.refundBeyondReach(txn, store: copy.store, server: copy.server, policy: copy.policy)
                            ?? AnomalyWording.refundNotTakenEvenHealed
                        auditor.markRefundStuck(txn, why: why, at: world.now, &changes)
                    } else if !armed.isEmpty {
                        auditor.change(
                            a.id, type: a.type, status: .open,
                            mechanism: AnomalyWording.leftOpen(by: armed, healed: "the server takes the coins back"),
                            at: world.now, &changes)
                    }
                    continue
                }
                guard copy.auditor.ledger.charges[i].credits.isEmpty else {
                    if !armed.isEmpty {
                        auditor.change(
                            a.id, type: a.type, status: .open,
                            mechanism: AnomalyWording.leftOpen(by: armed, healed: "the charge is credited"),
                            at: world.now, &changes)
                    }
                    continue
                }
                auditor.markStuck(
                    txn, at: world.now, lateListener: world.app.listensLate(policy: world.policy), &changes)
            }
        }
        for entry in changes { world.append(entry, into: &written) }
    }

    /// Settling stops when only the subscription clock is left, but the server's own
    /// scheduled check is part of what the world still does: when an open subscription
    /// anomaly is one the server's next status poll changes (a copy, run until then, shows
    /// it), the world runs until that poll has acted, so that the verdict reads what the
    /// server's own job does instead of calling a difference it ends open or permanent.
    mutating func runServerChecksThatAct(into written: inout [LogEntry]?) {
        guard let poll = world.policy.serverStatusPollMs,
            auditor.anomalies.contains(where: { $0.status == .open && $0.type.isSubscription })
        else { return }
        let until = world.now + poll + 60_000
        var copy = self
        copy.run(until: until)
        let changes = auditor.anomalies.contains { a in
            a.status == .open && a.type.isSubscription && copy.auditor.anomalies[a.id - 1].status != .open
        }
        if changes { run(until: until, into: &written) }
    }

    /// The what-if of the entitlement timelines: a copy of the world, healed, runs on until
    /// the server's next status poll could have answered (or a minute when it polls not);
    /// a difference of E and G that does not end there is permanent.
    mutating func concludeTimelines(_ changes: inout [LogEntry]) {
        let open = auditor.anomalies.filter { $0.status == .open && auditor.isTimelineAnomaly($0) }
        guard !open.isEmpty else { return }
        var copy = self
        copy.heal()
        copy.run(until: world.now + world.server.statusPollWithin(policy: world.policy) + 60_000)
        for a in open where copy.auditor.anomalies[a.id - 1].status == .open {
            auditor.change(
                a.id, type: a.type, status: .permanent,
                mechanism:
                    "nothing the server will still hear or ask makes its access match Apple's (E and G stay apart)",
                at: world.now, &changes)
        }
    }

    /// `concludeVerdict(into:)` keeping what it writes in the log only.
    package mutating func concludeVerdict() {
        var none: [LogEntry]?
        concludeVerdict(into: &none)
    }

    /// A copy of the world in which everything goes right for `buyer`'s pending charges.
    func whatIf(buyer: String) -> Simulation {
        var copy = self
        copy.heal()
        if copy.app.loggedIn != buyer, copy.users.contains(buyer) {
            _ = copy.apply(.login(user: buyer))
        }
        if !copy.app.storeOpen { _ = copy.apply(.openStore) }
        // Apple delivers unfinished transactions again on return from the background.
        _ = copy.apply(.background)
        _ = copy.apply(.foreground)
        copy.settle()
        return copy
    }
}
