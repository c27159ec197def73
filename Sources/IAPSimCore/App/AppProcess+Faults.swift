/// The app's fault (`fail-next-payment unfinished`: its failure branch will skip
/// `finishTransaction`), worded and disarmed here alone.
extension AppProcess {
    /// What is armed, in words.
    /// Whether the app has a fault armed (what `armedFaults` lists, without its words).
    var hasArmedFaults: Bool { skipFinishNextFailed }

    var armedFaults: [String] { skipFinishNextFailed ? ["next failure left unfinished"] : [] }

    /// Disarms it; adds what it disarmed, in words, to `out`.
    mutating func disarm(_ out: inout [String]) {
        guard skipFinishNextFailed else { return }
        skipFinishNextFailed = false
        out.append("the skipped finishTransaction")
    }
}
