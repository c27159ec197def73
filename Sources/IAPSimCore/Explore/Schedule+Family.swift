/// Family Sharing steps for the StoreKit 2 schedules that subscribe (a family member joins,
/// the purchaser stops and starts sharing, the member leaves), from a generator of their
/// own so that every other step of the schedule stays as it was.
extension Schedule {
    /// The family member explore's runs use: never one of the device's accounts.
    static let familyMember = "kid"
    /// Gaps between sharing steps: never 0, so that one instant never both ends and begins a
    /// share (its `REVOKE` and the new transaction would carry the same millisecond).
    static let familyDelays: [VirtualTime] = [1_000, 60_000, 3_600_000, 86_400_000]

    /// In a third of the runs that subscribe to a catalog with a `familyShareable`
    /// subscription: `join-family kid` somewhere, then one to three sharing steps after it.
    mutating func addFamilySteps(seed: UInt64, catalog: Catalog) {
        guard catalog.subscriptions.contains(where: \.familyShareable), !users.contains(Self.familyMember) else {
            return
        }
        var rng = SplitMix64(seed: seed).derive("schedule-family")
        guard rng.below(3) == 0 else { return }
        var at = rng.below(steps.count + 1)
        steps.insert(ScheduleStep(.after(0), .joinFamily(Self.familyMember)), at: at)
        var member = true
        for _ in 0..<(1 + rng.below(3)) {
            let command: Command
            switch rng.below(3) {
            case 0: command = .familyShare(on: rng.below(2) == 0)
            default:
                command = member ? .leaveFamily : .joinFamily(Self.familyMember)
                member.toggle()
            }
            at = min(steps.count, at + 1 + rng.below(max(1, steps.count - at)))
            steps.insert(ScheduleStep(.after(Self.familyDelays[rng.below(Self.familyDelays.count)]), command), at: at)
        }
    }
}
