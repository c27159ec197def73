import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files one command writes (`--log`, `--diagram`, findings), all or none: each is first
/// written to a temporary file beside it, and only when every one is written are they
/// renamed into place. When anything fails, nothing is left, not even a temporary file.
///
/// A path that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) cannot
/// be replaced by a rename: it is written in place when staged, so that its failure too is
/// known before the command reports success.
struct OutputFiles {
    /// Why an output cannot be written, as one line naming the path and the OS's cause.
    struct Failure: Error {
        var message: String
    }

    private struct Staged {
        var path: String
        var temp: String
    }

    private var staged: [Staged] = []

    /// Refuses, before anything runs, outputs that would clash: two on one path, one on an
    /// input, one in a directory that does not exist or cannot be written, one that is a
    /// directory. `outputs` pairs each flag with its path.
    static func check(outputs: [(flag: String, path: String)], inputs: [String]) throws(Failure) {
        var seen: [(flag: String, identity: FileIdentity)] = []
        for input in inputs {
            if let identity = FileIdentity(input) { seen.append(("the input \(input)", identity)) }
        }
        for (flag, path) in outputs {
            let identity = try writableIdentity(flag: flag, path: path)
            if let clash = seen.first(where: { $0.identity == identity }) {
                throw Failure(
                    message: "\(flag) \(path): the same file as \(clash.flag); "
                        + "every output needs its own path")
            }
            seen.append((flag, identity))
        }
    }

    private static func writableIdentity(flag: String, path: String) throws(Failure) -> FileIdentity {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                throw Failure(message: "\(flag) \(path): it is a directory; give a file name")
            }
        } else {
            let dir = directory(of: path)
            guard access(dir, W_OK | X_OK) == 0 else {
                throw Failure(message: "\(flag) \(path): cannot write in \(dir): \(Output.osReason())")
            }
        }
        guard let identity = FileIdentity(path) else {
            throw Failure(message: "\(flag) \(path): \(Output.osReason())")
        }
        return identity
    }

    /// The directory a file path lies in (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Writes `text` to a temporary file beside `path`; `commit` moves it into place.
    mutating func stage(_ text: String, to path: String) throws(Failure) {
        try stage(bytes: Array(text.utf8), to: path)
    }

    /// Writes `bytes` to a temporary file beside `path`; `commit` moves it into place.
    mutating func stage(bytes: [UInt8], to path: String) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            if let reason = Self.writeInPlace(bytes, to: path) { throw fail(path, reason) }
            return
        }
        let base = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(Self.directory(of: path))/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw fail(path, Output.osReason()) }
        let temp = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        staged.append(Staged(path: path, temp: temp))
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        // fsync: a full disk may only say so when the data is flushed.
        if let reason = Output.writeAll(fd, bytes) ?? (fsync(fd) == 0 ? nil : Output.osReason()) {
            close(fd)
            throw fail(path, reason)
        }
        guard close(fd) == 0 else { throw fail(path, Output.osReason()) }
    }

    /// Moves every staged file into place. On a failure, removes what was already moved.
    mutating func commit() throws(Failure) {
        var done: [String] = []
        for item in staged {
            guard rename(item.temp, item.path) == 0 else {
                let reason = Output.osReason()
                for path in done { unlink(path) }
                throw fail(item.path, reason)  // and the temporary files not yet moved
            }
            done.append(item.path)
        }
        staged = []
    }

    /// Removes every temporary file staged so far.
    mutating func discard() {
        for item in staged { unlink(item.temp) }
        staged = []
    }

    private mutating func fail(_ path: String, _ reason: String) -> Failure {
        discard()
        return Failure(message: "\(path): cannot write: \(reason)")
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return Output.osReason() }
        defer { close(fd) }
        return Output.writeAll(fd, bytes)
    }
}

/// What makes two paths the same file: device and inode when it exists, else the real
/// path of its directory and its name.
enum FileIdentity: Equatable {
    case existing(dev: UInt64, ino: UInt64)
    case planned(String)

    init?(_ path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            self = .existing(dev: UInt64(info.st_dev), ino: UInt64(info.st_ino))
            return
        }
        guard let real = realpath(OutputFiles.directory(of: path), nil) else { return nil }
        defer { free(real) }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        self = .planned(String(cString: real) + "/" + name)
    }
}
