/// The merchant server's fault (`server-outage`), worded and ended here alone.
extension MerchantServer {
    /// What is armed, in words.
    /// Whether the server has a fault armed (what `armedFaults` lists, without its words).
    var hasArmedFaults: Bool { outage }

    var armedFaults: [String] { outage ? ["merchant server down"] : [] }

    /// The commands that end it, added to `out`.
    func healing(_ out: inout [Command]) { if outage { out.append(.serverOutage(on: false)) } }
}
