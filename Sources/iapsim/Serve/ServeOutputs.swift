import ArgumentParser
import Foundation
import IAPSimCurses
import IAPSimScenario
import IAPSimServe

/// The files one serve writes (`--port-file`, `--log`, `--record`; docs/serve.md, "Files").
/// Every path is checked before anything runs (`OutputCheck`): never an input of the same
/// command (serve.yaml, a scenario file, the recording, the catalog's files, the `--spawn`
/// script), a FIFO, a device, a link or a
/// directory, and no two outputs on one file. Each is written into a staged file beside its
/// target (`O_CREAT|O_EXCL|O_NOFOLLOW`, an unguessable name) and renamed into place:
/// `--port-file` as soon as the API listens, `--log` and `--record` once the verdict is
/// printed. A write error is one line and exit 2; the runner stops the backend first.
final class ServeOutputs: @unchecked Sendable {
    private var files = OutputFiles()
    private let portFile: String?
    private var log: StagedFile?
    private var record: StagedFile?
    private var recordFailure: StagedFile.Failure?
    private let lock = NSLock()

    /// Checks every output against the others and `inputs`, then stages `--log` and `--record`.
    init(_ command: ServeCommand, inputs: [OutputCheck.Input]) throws {
        portFile = command.portFile
        let outputs = [
            ("--port-file", command.portFile), ("--log", command.logFile), ("--record", command.record),
            ("--junit", command.junit),
        ]
        do {
            try OutputCheck.check(
                outputs.compactMap { flag, path in path.map { .file(flag: flag, path: $0) } }, inputs: inputs)
            StagedFile.installCleanup()
            ServeSpawn.signalHook = { StagedFile.removeAllStaged() }
            if let path = command.logFile { log = try files.open(path) }
            if let path = command.record { record = try files.open(path) }
        } catch {
            throw Self.refusal(error)
        }
    }

    static func refusal(_ error: StagedFile.Failure) -> ExitCode {
        Output.error("Error: \(error.message)")
        return ExitCode(2)
    }

    /// `--record`'s writer: each line as the transport makes it; the first error is kept
    /// for `checkRecord` (the transport cannot stop the run itself).
    var recordSink: (@Sendable (String) -> Void)? {
        guard record != nil else { return nil }
        return { [self] line in
            lock.withLock {
                guard recordFailure == nil, let record else { return }
                do throws(StagedFile.Failure) { try record.write(line + "\n") } catch { recordFailure = error }
            }
        }
    }

    /// A `--record` write that failed, as the failure that ends the serve (exit 2).
    var recordProblem: ServeFailure? {
        lock.withLock { recordFailure.map { ServeFailure(exitCode: 2, $0.message) } }
    }

    /// `--port-file`: `{"api": URL, "backend": URL}`, put in place at once.
    func writePortFile(api: String, backend: String) throws {
        guard let portFile else { return }
        let text = "{\"api\":" + ServeJSON.quote(api) + ",\"backend\":" + ServeJSON.quote(backend) + "}\n"
        var own = OutputFiles()
        do {
            try own.stage(text, to: portFile)
            try own.commit()
        } catch {
            throw Self.refusal(error)
        }
    }

    /// Appends to `--log`.
    func writeLog(_ text: String) throws {
        guard let log else { return }
        do { try log.write(text) } catch { throw Self.refusal(error) }
    }

    var logging: Bool { log != nil }

    /// Puts `--log` and `--record` in place (after the verdict, before `--hold`).
    func commit() throws {
        if let problem = recordProblem { throw Self.refusal(StagedFile.Failure(message: problem.description)) }
        lock.lock()
        defer { lock.unlock() }
        do { try files.commit() } catch { throw Self.refusal(error) }
        log = nil
        record = nil
    }

    /// Removes whatever is still staged (a failed or refused serve leaves no file).
    func discard() {
        lock.withLock { files.discard() }
        log = nil
        record = nil
    }
}
