import Foundation
import Testing

/// `]`, `[` and `O` in the real binary: the files in scenarios/README.md's order, the weak
/// policy's file before its fix, and the browser under the README's failure modes with
/// each file's title (walkthrough 3, defect 17).
@Suite(.serialized) struct TUIFileOrderEndToEndTests {
    @Test func nextFileIsTheFixAndTheBrowserGroupsByFailureMode() throws {
        let tmux = try Tmux(["play", "scenarios/sub-billing-retry-naive.yaml"])
        defer { tmux.kill() }
        try tmux.wait(for: "Merchant server")
        try tmux.send("]")
        try tmux.wait(for: "play sub-billing-retry-hardened.yaml")
        try tmux.send("[", "[")
        // The README lists sub-grace-cut-hardened.yaml just before the billing-retry pair.
        try tmux.wait(for: "play sub-grace-cut-hardened.yaml")
        try tmux.send("O")
        // The failure mode's heading, and the file playing with its title beside its name.
        try tmux.wait("the browser's heading and titles") { screen in
            screen.contains("by failure mode") && screen.contains("Auto-renewable subscriptions (StoreKit 2)")
                && screen.contains("playing now: Subscriptions: the server honours")
        }
        try tmux.send("Escape", "q")
    }
}
