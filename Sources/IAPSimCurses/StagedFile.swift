import CNcurses
import IAPSimScenario

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One output being written: a new file with an unpredictable name in the target's
/// directory, created with `O_EXCL` and `O_NOFOLLOW` (so that nothing already there, a
/// link or a planted file, is opened), written in buffered chunks as the command goes, and
/// renamed onto the target only when the command has succeeded.
///
/// Until then its name is registered with the signal handler (`installCleanup`): SIGINT,
/// SIGTERM or SIGHUP removes it, and the target keeps what it held before.
package final class StagedFile {
    /// The file this one will become.
    package let path: String
    /// The staged file's name (bytes, as the OS has it).
    let temp: [UInt8]
    private var fd: Int32
    private var slot: Int32
    private var buffer: [UInt8] = []
    private static let chunk = 1 << 16

    /// Why an output cannot be written: one line naming the path and the OS's cause.
    package struct Failure: Error, CustomStringConvertible {
        package var message: String
        package init(message: String) { self.message = message }
        package var description: String { message }
    }

    /// Creates the staged file beside `path`.
    package init(for path: String) throws(Failure) {
        self.path = path
        let directory = StagedFile.directory(of: path)
        // A short prefix of the name: the staged name must fit where the target's does.
        let base = String((path.split(separator: "/").last.map(String.init) ?? path).prefix(32))
        for _ in 0..<16 {
            let name = FileName.bytes("\(directory)/.\(base).\(StagedFile.randomSuffix()).tmp")
            let cName = name.map { CChar(bitPattern: $0) } + [0]
            // Registered before it exists: a signal between the creation and the registration
            // left the file behind (the handler unlinks a name that is not there harmlessly).
            let registered = cn_staged_add(cName, 0)
            let opened = open(cName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if opened < 0 {
                let code = errno
                cn_staged_remove(registered)
                if code == EEXIST { continue }
                throw Failure(message: "\(path): cannot write in \(directory): \(StagedFile.osReason(code))")
            }
            fd = opened
            temp = name
            slot = registered
            return
        }
        throw Failure(message: "\(path): cannot create a new file in \(directory)")
    }

    deinit {
        if fd != -1 { discard() }
    }

    /// Makes SIGINT, SIGTERM and SIGHUP remove every staged file (and every directory
    /// registered with `registerCreatedDirectory`) before the process dies of the signal.
    package static func installCleanup() { cn_install_cleanup_signals() }

    /// Removes every staged file and registered directory now: for a signal handler that
    /// replaces `installCleanup`'s (only `unlink` and `rmdir`: async-signal-safe).
    package static func removeAllStaged() { cn_staged_cleanup() }

    /// Registers a directory this command created, for the signal handler to remove if it is
    /// still empty; returns the token for `forgetDirectory`.
    package static func registerCreatedDirectory(_ path: String) -> Int32 {
        FileName.withCString(path) { cn_staged_add($0, 1) }
    }

    package static func forgetDirectory(_ token: Int32) { cn_staged_remove(token) }

    package func write(_ text: String) throws(Failure) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.chunk { try flush() }
    }

    package func write(bytes: [UInt8]) throws(Failure) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.chunk { try flush() }
    }

    private func flush() throws(Failure) {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail()
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and flushes it to disk (a full disk may only say so then).
    package func finish() throws(Failure) {
        guard fd >= 0 else { return }  // finished already
        try flush()
        guard fsync(fd) == 0 else { throw fail() }
        let closed = close(fd)
        fd = -2  // closed, still staged
        guard closed == 0 else { throw fail() }
    }

    /// Renames the staged file onto the target (replacing it, never writing through it).
    package func putInPlace() throws(Failure) {
        let staged = tempCString
        let done = FileName.withCString(path) { rename(staged, $0) }
        guard done == 0 else { throw fail() }
        cn_staged_remove(slot)
        fd = -1
    }

    /// Removes the staged file; the target is left as it was.
    package func discard() {
        guard fd != -1 else { return }
        if fd >= 0 { close(fd) }
        unlink(tempCString)
        cn_staged_remove(slot)
        fd = -1
    }

    private var tempCString: [CChar] { temp.map { CChar(bitPattern: $0) } + [0] }

    private func fail() -> Failure {
        let reason = Self.osReason()
        return Failure(message: "\(path): cannot write: \(reason)")
    }

    /// The directory a file path lies in (`.` for a bare name).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    package static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let digits = String(value, radix: 36)
        return String(repeating: "0", count: 13 - digits.count) + digits
    }

    package static func osReason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}
