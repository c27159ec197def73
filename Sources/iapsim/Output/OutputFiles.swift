import IAPSimCurses
import IAPSimScenario

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files one command writes (`--log`, `--diagram`, `--signed`, findings), all or none.
/// Each is written as the command goes into a new staged file beside its target
/// (`StagedFile`), and only when every one is written are they renamed into place. When
/// anything fails, every staged file and every directory this command created is removed;
/// a file that existed before is left as it was (one already replaced is put back).
/// A signal during the command removes the staged files and created directories too.
///
/// Every path is checked first (`OutputCheck`): this type only writes where that allowed.
struct OutputFiles {
    typealias Failure = StagedFile.Failure

    private var staged: [StagedFile] = []
    private var created: [(path: String, token: Int32)] = []

    /// Creates `path` and its missing parents, each registered to be removed on failure.
    mutating func makeDirectory(_ path: String, flag: String) throws(Failure) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            let made = FileName.withCString(current) { mkdir($0, 0o777) } == 0
            if made {
                created.append((current, StagedFile.registerCreatedDirectory(current)))
                continue
            }
            let reason = StagedFile.osReason()
            guard errno == EEXIST, let info = OSPath.info(current, follow: false) else {
                throw fail("\(flag) \(path): cannot create \(current): \(reason)")
            }
            // An existing link in the middle of the path is followed only if it is one the
            // user had before; the last part was checked not to be a link.
            guard info.st_mode & S_IFMT == S_IFDIR || (OSPath.info(current).map { $0.st_mode & S_IFMT } ?? 0) == S_IFDIR
            else { throw fail("\(flag) \(path): \(current) is not a directory") }
        }
    }

    /// A new staged file for `path`, written as the command goes.
    mutating func open(_ path: String) throws(Failure) -> StagedFile {
        do {
            let file = try StagedFile(for: path)
            staged.append(file)
            return file
        } catch {
            throw fail(error.message)
        }
    }

    /// Stages `text` (all of it at once) for `path`.
    mutating func stage(_ text: String, to path: String) throws(Failure) {
        try write(path) { file throws(Failure) in try file.write(text) }
    }

    /// Stages `bytes` (all of them at once) for `path`.
    mutating func stage(bytes: [UInt8], to path: String) throws(Failure) {
        try write(path) { file throws(Failure) in try file.write(bytes: bytes) }
    }

    private mutating func write(_ path: String, _ body: (StagedFile) throws(Failure) -> Void) throws(Failure) {
        let file = try open(path)
        do {
            try body(file)
        } catch {
            throw fail(error.message)
        }
    }

    /// Flushes every staged file to disk: the last moment a write can fail.
    mutating func finish() throws(Failure) {
        for file in staged {
            do { try file.finish() } catch { throw fail(error.message) }
        }
    }

    /// Moves every staged file into place. A target that existed is kept under a hard link
    /// until all are moved, so that a failure half-way can put it back.
    mutating func commit() throws(Failure) {
        try finish()
        var moved: [(file: StagedFile, backup: [UInt8]?)] = []
        for file in staged {
            let backup = Self.keep(file.path)
            do {
                try file.putInPlace()
            } catch {
                for (done, kept) in moved.reversed() { Self.restore(done.path, from: kept) }
                if let backup { Self.unlinkBytes(backup) }
                throw fail(error.message)
            }
            moved.append((file, backup))
        }
        for case (_, let backup?) in moved { Self.unlinkBytes(backup) }
        staged = []
        for (_, token) in created { StagedFile.forgetDirectory(token) }
        created = []
    }

    /// Removes every staged file and every directory this command created (if empty).
    mutating func discard() {
        for file in staged { file.discard() }
        staged = []
        for (path, token) in created.reversed() {
            _ = FileName.withCString(path) { rmdir($0) }
            StagedFile.forgetDirectory(token)
        }
        created = []
    }

    private mutating func fail(_ message: String) -> Failure {
        discard()
        return Failure(message: message)
    }

    /// A hard link to the regular file at `path` under a new hidden name, or nil when there
    /// is no such file (or the file system cannot link).
    private static func keep(_ path: String) -> [UInt8]? {
        guard let info = OSPath.info(path, follow: false), info.st_mode & S_IFMT == S_IFREG else { return nil }
        let base = String((path.split(separator: "/").last.map(String.init) ?? path).prefix(32))
        let name = FileName.bytes("\(StagedFile.directory(of: path))/.\(base).\(StagedFile.randomSuffix()).old")
        let linked = FileName.withCString(path) { target in
            (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { link(target, $0.baseAddress!) }
        }
        return linked == 0 ? name : nil
    }

    private static func restore(_ path: String, from backup: [UInt8]?) {
        guard let backup else {
            _ = FileName.withCString(path) { unlink($0) }
            return
        }
        _ = FileName.withCString(path) { target in
            (backup.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { rename($0.baseAddress!, target) }
        }
    }

    private static func unlinkBytes(_ name: [UInt8]) {
        _ = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { unlink($0.baseAddress!) }
    }
}
