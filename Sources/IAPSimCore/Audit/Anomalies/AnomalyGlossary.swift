/// The verdict's glossary: the words a trainee meets in write-ups and what this simulator
/// means by them. Only the entries the anomalies of a run need are given.
extension AnomalyType {
    /// The glossary lines for these anomalies (none for a run without any).
    package static func glossary(_ anomalies: [(type: AnomalyType, status: AnomalyStatus)]) -> [String] {
        var lines: [String] = []
        if anomalies.contains(where: { $0.type == .lostOrder || $0.type == .missedOrder }) {
            lines.append(
                "lost vs missed: write-ups use 掉单, 漏单 and 丢单 loosely for \"paid, not delivered\";"
                    + " here lost-order means the app never handled the transaction, missed-order that it"
                    + " handled it and the server never credited it (the split is this simulator's own)")
        }
        if anomalies.contains(where: { $0.type == .duplicateReceipt || $0.type == .doubleCredit }) {
            lines.append(
                "duplicate-receipt (订单重复): an under-credit by wrong pairing (the order was paired with"
                    + " another transaction), not a double delivery; a double delivery is double-credit")
        }
        if anomalies.contains(where: { $0.status == .permanent }) {
            lines.append(
                "permanent: nothing within the automated system will make it right; support can still find"
                    + " the order by Look Up Order ID (the order ID on Apple's e-mailed receipt), or Apple can refund it"
            )
        }
        return lines
    }
}
