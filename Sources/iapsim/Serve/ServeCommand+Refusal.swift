import ArgumentParser
import IAPSimCore
import IAPSimScenario

/// `run`, `check` and `play` refuse a `merchant: external` file (docs/serve.md): only
/// `iapsim serve` has a backend to play it against.
enum ServeRefusal {
    static func message(_ file: String) -> String {
        "\(file): merchant: external: this file needs your backend as the merchant server; run it with iapsim serve"
    }

    static func refuse(_ scenario: Scenario, file: String) throws {
        guard scenario.merchant == .external else { return }
        Output.error("Error: " + message(file))
        throw ExitCode(2)
    }
}
