import ArgumentParser
import Foundation
import IAPSimCore
import IAPSimScenario
import IAPSimServe
import IAPSimTUI

/// `iapsim serve` with no file: the terminal UI, its Merchant server panel turned into "Your
/// backend" (the backend's ledger and the HTTP exchanges, live). Each restart is a world of
/// its own (`u1-alice`, `u2-alice`, ...), so the backend needs no reset.
struct ServeUI {
    let command: ServeCommand
    let options: ServeSession.Options
    let outputs: ServeOutputs

    func run() throws {
        let loaded = try command.catalog.load()
        // The screen is the UI's: a spawned backend's output goes to /dev/null (its own
        // `2>FILE` in --spawn keeps it), or it would write over the panels.
        var options = options
        options.quietBackend = true
        let session = try ServeCommand.start(options, outputs: outputs)
        defer { session.close() }
        let preset = command.policy ?? .sk2Hardened
        let users = ["alice", "bob"]
        let connect: @Sendable () -> ExternalLink = {
            // A world that cannot get a merchant has no backend to call: the failure shows
            // as refused orders, and the session's failure ends the serve at exit.
            (try? session.merchant(users: users, prefix: "u\(session.worlds + 1)-"))?.1
                ?? ExternalLink(merchant: Unreachable(), blind: true)
        }
        try TerminalUI.launch(noColor: false, autopilot: false, speed: 1) { uiOptions in
            var model = UIModel(
                seed: command.seed, users: users, preset: preset, options: uiOptions, catalog: loaded,
                storekitPath: command.catalog.storekit.map(TerminalUI.absolutePath))
            model.connectBackend(connect)
            return model
        }
    }
}

/// The link of a world whose merchant could not be made: every call answers nothing.
struct Unreachable: ExternalMerchant {
    func exchange(_ request: ExternalRequest, world: World) -> ExternalReply {
        ExternalReply(.unanswered(request, "no backend"))
    }
}
