/// The app's fault (`fail-next-payment unfinished`: its failure branch will skip
/// `finishTransaction`), worded and disarmed here alone.
extension AppProcess {
    /// What is armed, in words.
    var armedFaults: [String] { skipFinishNextFailed ? ["next failure left unfinished"] : [] }

    /// Disarms it; returns what it disarmed, in words.
    mutating func disarm() -> [String] {
        guard skipFinishNextFailed else { return [] }
        skipFinishNextFailed = false
        return ["the skipped finishTransaction"]
    }
}
