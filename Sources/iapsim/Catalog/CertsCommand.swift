import ArgumentParser
import IAPSimCurses
import IAPSimSigned

/// `iapsim certs --out DIR`: writes `DIR/root.cer`, the simulator's App Store root
/// certificate (DER), for a merchant server to trust when it verifies the simulator's JWS,
/// and `DIR/api-key.p8` with `DIR/api-key.json`, the App Store Connect API key its calls to
/// the simulator's App Store Server API lookalike are signed with (docs/server-api.md, "Keys").
struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract:
            "Write the simulator's root certificate (root.cer, DER) and its App Store Server API key "
            + "(api-key.p8, api-key.json) into a directory.",
        discussion: "The root's key and subject, and the API key and its ids, are the same on every "
            + "machine and in every run, so files written once keep working. Exit status: 0 written, "
            + "2 the directory cannot be written."
    )

    @Option(
        help: ArgumentHelp(
            "The directory to write root.cer, api-key.p8 and api-key.json into (created if missing).",
            valueName: "dir"))
    var out: String

    /// What `--out` receives.
    static let files = ["root.cer", "api-key.p8", "api-key.json"]

    func validate() throws {
        do {
            try OutputCheck.check([.directory(flag: "--out", path: out, files: Self.files)], inputs: [])
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        StagedFile.installCleanup()
        var files = OutputFiles()
        do {
            try files.makeDirectory(out, flag: "--out")
            try files.stage(bytes: try SigningChain.appStore().root, to: RunExports.path(out, "root.cer"))
            try files.stage(bytes: Array(try APIKey.pem().utf8), to: RunExports.path(out, "api-key.p8"))
            try files.stage(bytes: Array(APIKey.json.utf8), to: RunExports.path(out, "api-key.json"))
            try files.commit()
        } catch {
            files.discard()
            Output.error("Error: \(error)")
            throw ExitCode(2)
        }
    }
}
