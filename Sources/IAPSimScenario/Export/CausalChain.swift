import IAPSimCore

/// The chain of facts behind one anomaly: every log entry that names it, its transactions
/// or its orders, and the facts of the inputs that caused it (the command, what it did at
/// once, and when an armed fault fired, the loss it made and the time-out that followed).
/// Read by the inspector and by handouts, from any log (a run's records, the UI's world).
package enum CausalChain {
    /// `words`: each entry's `words(entry.fact.text)`, when the caller asks for the chains of
    /// many anomalies of one log (a handout per anomaly): the log's words are then split once,
    /// not once per anomaly.
    package static func entries(
        _ log: [LogEntry], anomaly: Int, ids: Set<String>, causes: [ReplayStep], words known: [Set<String>]? = nil
    ) -> [LogEntry] {
        let own = "A\(anomaly)"
        let causeTexts = Set(causes.map(\.command.scenarioText))
        let armed = causes.contains { !$0.command.firesAtOnce }
        var out: [LogEntry] = []
        var followingCause: VirtualTime?
        var lostMessages: [Int] = []
        for (n, entry) in log.enumerated() {
            var keep = false
            switch entry.fact {
            case .commandIssued(let command) where causeTexts.contains(command.scenarioText):
                keep = true
                followingCause = entry.time
            case .faultFired where armed:
                keep = true
                followingCause = entry.time
            case .messageDropped(let id, _, _) where followingCause == entry.time:
                lostMessages.append(id)
                keep = true
            case .requestTimedOut(let id, _) where lostMessages.contains(id):
                keep = true
            default:
                if followingCause == entry.time, entry.part == .app || entry.part == .fault {
                    keep = true
                } else {
                    followingCause = nil
                    let named = known.map { $0[n] } ?? words(entry.fact.text)
                    keep = named.contains(own) || !named.isDisjoint(with: ids)
                }
            }
            if keep { out.append(entry) }
        }
        return out
    }

    /// Whether `entry` only repeats an anomaly's opening: its status change at the moment it
    /// opened, to the status it opened with (`A1 double-credit -> permanent: credited twice`
    /// under `A1 double-credit permanent: …`). The chain shows each opening once (walkthrough
    /// 6); the mechanism is the page's "how it ended" and the inspector's `mechanism:` line.
    /// `openings` keeps the openings seen so far, in log order.
    package static func repeatsOpening(_ entry: LogEntry, openings: inout [Int: LogEntry]) -> Bool {
        // Two facts of the log's many matter here: no `default:` branch over the rest.
        if case .anomalyOpened(let id, _, _, _, _) = entry.fact {
            openings[id] = entry
            return false
        }
        guard case .anomalyStatusChanged(let id, _, let status, _) = entry.fact, let opened = openings[id],
            opened.time == entry.time, case .anomalyOpened(_, _, _, status, _) = opened.fact
        else { return false }
        return true
    }

    /// `entries` without the status changes that only repeat an opening (`repeatsOpening`).
    package static func openedOnce(_ entries: [LogEntry]) -> [LogEntry] {
        var openings: [Int: LogEntry] = [:]
        return entries.filter { !repeatsOpening($0, openings: &openings) }
    }

    /// `ids` and the transactions the anomaly's status changes name: the one that put it
    /// right (`access granted by the app's report (1000000000002)`, a recovered renewal), whose
    /// facts belong to its story as much as the first purchase's.
    package static func ids(_ ids: Set<String>, resolvedThrough log: [LogEntry], anomaly: Int) -> Set<String> {
        var out = ids
        for entry in log {
            guard case .anomalyStatusChanged(let id, _, _, let mechanism?) = entry.fact, id == anomaly else { continue }
            out.formUnion(words(mechanism).filter { $0.count >= 10 && $0.allSatisfy(\.isNumber) })
        }
        return out
    }

    package static func words(_ text: String) -> Set<String> {
        Set(text.split { !($0.isLetter || $0.isNumber) }.map(String.init))
    }
}

extension Command {
    /// False for a fault that is armed now and fires later (a drop, a failed payment).
    var firesAtOnce: Bool {
        switch self {
        case .networkFault(.dropNextRequest), .networkFault(.dropNextResponse), .storeFault(.status),
            .storeFault(.failNextPayment), .storeFault(.failNextPaymentUnfinished),
            .storeFault(.interruptNextPayment):
            return false
        case .buy, .openStore, .closeStore, .crash, .launch, .background, .foreground, .uninstall, .login,
            .logout, .network, .networkFault(.latency), .storeFault(.outage), .askToBuy, .approve, .decline,
            .replay, .forge, .serverOutage, .serverAPIFault, .refundLoop, .spend, .subscription, .heal,
            .setPolicy, .setPreset, .wait, .settle:
            return true
        }
    }
}
