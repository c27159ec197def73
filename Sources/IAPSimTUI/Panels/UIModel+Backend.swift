import IAPSimCore

extension UIModel {
    /// `iapsim serve`'s terminal UI: the user's backend plays the merchant server of this
    /// world and of every world a restart makes. The split screen and the replays stay off:
    /// a real backend cannot be copied.
    package mutating func connectBackend(_ connect: @escaping @Sendable () -> ExternalLink) {
        backend = connect
        player.attach(connect())
    }
}
