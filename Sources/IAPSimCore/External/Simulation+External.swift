/// `merchant: external` (docs/serve.md): the harness's part of a served run. The backend's
/// ticks run on the world's clock with the auditor's grace periods passing first, and the
/// verdict is the acknowledgements' (`World+External.swift` has the world's part).
extension Simulation {
    /// Hands the merchant server's part to the user's backend, before anything has run. The
    /// server-side policy keys are the backend's now: the App Store sends every notification
    /// to it, and the simulated merchant's own reconciliation stays off.
    package mutating func attachExternal(_ link: ExternalLink) {
        world.external = link
        world.policy = world.policy.served
        auditor.judgesSubscriptions = false
    }

    /// Fires the backend's ticks due before `time` (`through`: up to and including it), each
    /// at its own virtual time, the auditor's grace periods passing first (rule 12).
    mutating func runTicks(before time: VirtualTime, through: Bool, into written: inout [LogEntry]?) {
        while let link = world.external,
            let k = link.nextTicks.indices.min(by: { link.nextTicks[$0] < link.nextTicks[$1] })
        {
            let at = link.nextTicks[k]
            guard at < time || through && at == time else { return }
            world.external?.nextTicks[k] += link.tickPeriods[k]
            passTime(before: at, into: &written)
            world.passTo(at)
            tick(k, into: &written)
        }
    }

    /// One tick's exchange, as an event of its own in the log.
    mutating func tick(_ k: Int, into written: inout [LogEntry]?) {
        world.begin(collecting: written != nil)
        if world.server.outage {
            world.outbox.log(.server, .noted("tick \(k + 1) skipped: server-outage is on"))
        } else {
            let reply = world.askBackend(.tick(index: k))
            world.applyLedger(reply.ledger, sender: .app, via: .reconciliation)
        }
        _ = world.commit(into: &written, &checkers)
    }

    /// The end of a served run (rules 12, 19, 20): one last round of ticks, the final ledger
    /// snapshot, the grace periods, then the verdict without what-if copies.
    mutating func concludeExternally(into written: inout [LogEntry]?) {
        guard let link = world.external else { return }
        for k in link.tickPeriods.indices { tick(k, into: &written) }
        world.begin(collecting: written != nil)
        let reply = world.askBackend(.ledger)
        world.applyLedger(reply.ledger, sender: .app, via: .reconciliation)
        world.outbox.log(
            .auditor,
            .noted(
                "under serve, open anomalies are not tried on a copy of the world and causes and fixes are not"
                    + " replayed: a real backend cannot be copied"
                    + (link.blind
                        ? "; blind (no ledger): only lost and missed orders are judged, credits are not seen"
                        : "")
                    + (world.store.subscriptions.isEmpty
                        ? ""
                        : "; subscriptions: their notifications V2 and Get All Subscription Statuses are served,"
                            + " but access is not judged (a ledger has no expiry to compare)")))
        _ = world.commit(into: &written, &checkers)
        letGracePeriodsEnd(into: &written)
        var changes: [LogEntry] = []
        auditor.concludeAcks(at: world.now, &changes)
        for entry in changes { world.append(entry, into: &written) }
    }
}
