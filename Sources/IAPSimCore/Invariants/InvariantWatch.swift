/// What earlier looks at the world saw, for the invariants about change: which
/// transactions were finished, and how many credits were already checked.
package struct InvariantWatch: Sendable, Hashable {
    /// Per transaction index in `AppStore.transactions` (which only grows): finished when
    /// last seen.
    var finished: [Bool] = []
    /// The server's credits before this index were checked under the policy of their time.
    var creditsChecked = 0

    package init() {}
}
