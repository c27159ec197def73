import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--spawn`'s keys for the backend (`IAPSIM_CERTS`: root.cer, api-key.p8, api-key.json), in
/// a folder `mkdtemp` makes fresh (mode 0700, a name no other user can guess or plant in
/// advance), each file created with `O_CREAT|O_EXCL|O_NOFOLLOW` (never through a link, never
/// over a file). Removed at close, and by the spawn's signal handler on SIGINT and SIGTERM.
package struct ServeKeyFolder: Sendable {
    package let path: String

    /// Makes the folder in `$TMPDIR` (else /tmp) and writes `files` into it.
    package static func make(_ files: [(name: String, bytes: [UInt8])]) throws(ServeFailure) -> ServeKeyFolder {
        var base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        if base.isEmpty { base = "/tmp" }
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast())
        template += Array("iapsim-serve-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else {
            throw ServeFailure(exitCode: 3, "--spawn: cannot make a folder for the keys in \(base): \(Self.reason())")
        }
        let folder = ServeKeyFolder(path: String(cString: template))
        ServeSpawn.removeOnSignal([folder.path])
        for file in files {
            let path = folder.path + "/" + file.name
            ServeSpawn.removeOnSignal([path])
            if let problem = Self.write(file.bytes, to: path) {
                folder.remove()
                throw ServeFailure(exitCode: 3, "--spawn: cannot write the keys: \(path): \(problem)")
            }
        }
        return folder
    }

    /// Writes a new file (it must not exist), all of it; the OS's reason when it cannot.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return reason() }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let why = reason()
                close(fd)
                return why
            }
            offset += n
        }
        return close(fd) == 0 ? nil : reason()
    }

    /// Removes the folder and what it holds (a link is removed, never followed).
    package func remove() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
        ServeSpawn.forgetOnSignal()
    }

    static func reason() -> String { String(cString: strerror(errno)) }
}
