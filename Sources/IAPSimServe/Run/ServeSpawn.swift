import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--spawn CMD` (docs/serve.md): `/bin/sh -c CMD` in its own process group, with iapsim's
/// environment plus the serve's variables, its output on iapsim's stderr; ready when `GET
/// /healthz` answers 2xx; stopped with SIGTERM to the group, SIGKILL after 5 s.
package final class ServeSpawn: @unchecked Sendable {
    package let pid: pid_t
    package let command: String
    private var stopped = false

    /// The spawned backends still running, for the signal handler.
    nonisolated(unsafe) static var running: [pid_t] = []
    /// Paths the signal handler removes (the keys, then their folder), as C strings made
    /// before a signal can come: `unlink` and `rmdir` are async-signal-safe.
    nonisolated(unsafe) static var signalPaths: [UnsafeMutablePointer<CChar>] = []
    /// Called by the signal handler before it exits: the command's own cleanup (its staged
    /// outputs), which the handler would otherwise replace.
    nonisolated(unsafe) package static var signalHook: (@convention(c) () -> Void)?

    /// `paths` are removed on SIGINT and SIGTERM too, before those given earlier.
    static func removeOnSignal(_ paths: [String]) {
        signalPaths = paths.compactMap { strdup($0) } + signalPaths
    }

    /// The paths are gone: the handler forgets them.
    static func forgetOnSignal() {
        let paths = signalPaths
        signalPaths = []
        for p in paths { free(p) }
    }

    /// `discardOutput`: the backend's stdout and stderr go to /dev/null (the terminal UI owns
    /// the screen; a `--spawn` command may still redirect its own output, `2>backend.log`).
    package init(
        command: String, environment extra: [String: String], discardOutput: Bool = false
    ) throws(ServeFailure) {
        self.command = command
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in extra { environment[k] = v }
        let env = environment.map { "\($0.key)=\($0.value)" }.sorted()
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The backend's output goes to iapsim's stderr (or nowhere, under the UI); its stdin
        // is /dev/null.
        if discardOutput {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        } else {
            posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        // Nothing else of this process reaches the backend: a pipe another thread opened for a
        // child of its own (still open here for an instant) would stay open as long as the
        // backend lives, and that child's reader would wait for its end for as long.
        _ = spawnClosesFrom(&actions, STDERR_FILENO + 1)
        let argv = ["/bin/sh", "-c", command]
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer {
            for p in cArgv { free(p) }
            for p in cEnv { free(p) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, "/bin/sh", &actions, &attributes, &cArgv, &cEnv)
        guard rc == 0 else {
            throw ServeFailure(
                exitCode: 3, "--spawn: could not start /bin/sh -c '\(command)': \(String(cString: strerror(rc)))")
        }
        pid = child
        Self.running.append(child)
    }

    /// The child's exit status if it has exited (reaped), else nil.
    package func exited() -> Int32? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        guard r == pid else { return nil }
        stopped = true
        Self.running.removeAll { $0 == pid }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Waits until `GET base/healthz` answers 2xx (nil), or says why not (exit 3).
    package func waitUntilHealthy(base: String, http: BackendHTTP) -> ServeFailure? {
        let deadline = ContinuousClock.now + .seconds(ServeLimits.healthzWaitSeconds)
        var last = "no answer"
        while ContinuousClock.now < deadline {
            if let code = exited() {
                return ServeFailure(
                    exitCode: 3, "--spawn: the backend exited (status \(code)) before GET /healthz answered")
            }
            let e = http.call(
                HTTPExchange(virtual: 0, method: "GET", path: "/healthz", headers: [], body: ""), seconds: 2)
            if let status = e.status, (200..<300).contains(status) { return nil }
            last = e.line
            usleep(100_000)
        }
        return ServeFailure(
            exitCode: 3,
            "--spawn: GET \(base)/healthz did not answer 2xx within \(ServeLimits.healthzWaitSeconds) s (last: \(last))"
        )
    }

    /// SIGTERM to the group, SIGKILL after 5 s: nothing is left running.
    package func stop() {
        guard !stopped else { return }
        stopped = true
        kill(-pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(ServeLimits.spawnKillGraceSeconds)
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid, kill(-pid, 0) != 0 { break }
            usleep(50_000)
        }
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, WNOHANG)
        Self.running.removeAll { $0 == pid }
    }

    /// On SIGINT or SIGTERM: the spawned groups are killed, then iapsim exits 130 / 143. On a
    /// crash (a trap, an abort, a bad access) the groups are killed too before the crash goes
    /// on: nothing is left running.
    package static func installSignalCleanup() {
        unblock([SIGINT, SIGTERM])
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { s in
                for pid in ServeSpawn.running { kill(-pid, SIGTERM) }
                for p in ServeSpawn.signalPaths where unlink(p) != 0 { rmdir(p) }
                ServeSpawn.signalHook?()
                usleep(200_000)
                for pid in ServeSpawn.running { kill(-pid, SIGKILL) }
                _exit(128 + s)
            }
        }
        for sig in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS] {
            signal(sig) { s in
                for pid in ServeSpawn.running { kill(-pid, SIGKILL) }
                for p in ServeSpawn.signalPaths where unlink(p) != 0 { rmdir(p) }
                signal(s, SIG_DFL)
                raise(s)
            }
        }
    }

    /// Unblocks `signals` in the calling thread: a parent may hand iapsim a mask that blocks
    /// them (a test runner's, say), and then neither Ctrl-C nor `kill` would reach a handler.
    package static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// A free TCP port on 127.0.0.1 for the spawned backend: a random one of 20000-32767 that
    /// binds (bound, closed), below Linux's ephemeral range (32768-60999). A port the kernel
    /// hands out for `bind(0)` (the API this very process serves next, another test's
    /// backend) is never taken from there, so none of them can take the backend's port
    /// before it binds it (seen: "Address already in use" when both were ephemeral).
    package static func freePort() -> Int? {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<64 {
            let port = Int.random(in: 20_000...32_767, using: &random)
            if binds(port) { return port }
        }
        return nil
    }

    /// Whether 127.0.0.1:`port` can be bound now (the socket is closed again at once).
    static func binds(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let len = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        } == 0
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module
/// does not import: the child closes every descriptor from `from` on.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnClosesFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
