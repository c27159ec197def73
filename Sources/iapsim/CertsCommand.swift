import ArgumentParser
import IAPSimCurses
import IAPSimSigned

/// `iapsim certs --out DIR`: writes `DIR/root.cer`, the simulator's App Store root
/// certificate (DER), for a merchant server to trust when it verifies the simulator's JWS.
struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract: "Write the simulator's root certificate (root.cer, DER) into a directory.",
        discussion: "The root's key and subject are the same on every machine and in every run, so "
            + "a root.cer written once trusts what later runs sign. Exit status: 0 written, "
            + "2 the directory cannot be written."
    )

    @Option(
        help: ArgumentHelp(
            "The directory to write root.cer into (created if missing).",
            valueName: "dir"))
    var out: String

    func validate() throws {
        do {
            try OutputCheck.check([.directory(flag: "--out", path: out, files: ["root.cer"])], inputs: [])
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
            try files.commit()
        } catch {
            files.discard()
            Output.error("Error: \(error)")
            throw ExitCode(2)
        }
    }
}
