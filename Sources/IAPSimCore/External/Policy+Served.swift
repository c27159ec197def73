extension Policy {
    /// The policy under `iapsim serve`: the app's keys as they are; of the server's, the App
    /// Store sends notifications V2 (the backend has a notification URL: what it does with
    /// them is its own code), and the simulated merchant's reconciliation timer is off (the
    /// backend's own timers are `ticks:`).
    package var served: Policy {
        var p = self
        p.serverNotifications = true
        p.serverReconcileMs = nil
        return p
    }
}
