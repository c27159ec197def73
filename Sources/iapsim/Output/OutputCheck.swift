import IAPSimCurses
import IAPSimScenario

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one check of every path a command will write (`--log`, `--diagram`, `--signed`,
/// `--record`, `certs --out`, `explore --out`), made before anything runs: a refusal names
/// the flag, the path and what is accepted.
///
/// A file output must be empty of nothing: a name that is not empty, not a directory, not a
/// FIFO, device or socket (they cannot be replaced, and writing into them is not writing a
/// file), not a symbolic link (iapsim never writes through one), in a directory that exists
/// and can be written. A directory output must be a directory (or creatable: its nearest
/// existing parent is a writable directory), not a link; the files it will hold are checked
/// as file outputs. No two outputs and no output and input may be the same file: the inputs
/// are every file the command reads (its scenarios, `--storekit`, `--grants`, a scenario's
/// `storekit:`, serve's `--config`, `--replay` and `--spawn` script).
enum OutputCheck {
    typealias Failure = StagedFile.Failure

    /// One output: a file, or a directory and the names of the files written in it.
    enum Target {
        case file(flag: String, path: String)
        case directory(flag: String, path: String, files: [String])
    }

    /// An input the command reads: a scenario (`the input FILE`), or a file a flag or a key
    /// names (`the input --storekit FILE`).
    struct Input {
        /// As a refusal names it after `the input `.
        var what: String
        var path: String

        static func scenario(_ path: String) -> Input { Input(what: path, path: path) }
        static func flag(_ flag: String, _ path: String) -> Input { Input(what: "\(flag) \(path)", path: path) }
    }

    /// Refuses any target that is not a file output may have, and any two that are one file:
    /// two outputs, or an output and an input (by device and inode: a relative path, `..`, a
    /// symbolic or a hard link to an input is that input).
    static func check(_ targets: [Target], inputs: [Input]) throws(Failure) {
        var seen: [(what: String, identity: FileIdentity, isDirectory: Bool)] = []
        for input in inputs {
            guard let identity = FileIdentity(input.path) else { continue }
            seen.append(("the input \(input.what)", identity, false))
        }
        // Two directory outputs may share a directory (their files are claimed one by one);
        // a file output may not be where a directory output will be, nor a file of another.
        func claim(_ flag: String, _ path: String, isDirectory: Bool = false) throws(Failure) {
            guard let identity = FileIdentity(path) else {
                throw Failure(message: "\(flag) \(path): \(StagedFile.osReason())")
            }
            if let clash = seen.first(where: { $0.identity == identity && !($0.isDirectory && isDirectory) }) {
                throw Failure(
                    message: "\(flag) \(path): the same file as \(clash.what); every output needs its own path")
            }
            seen.append((flag == "--signed" || isDirectory ? "\(flag) \(path)" : flag, identity, isDirectory))
        }
        for target in targets {
            switch target {
            case .file(let flag, let path):
                try file(flag: flag, path: path)
                try claim(flag, path)
            case .directory(let flag, let path, let files):
                let exists = try directory(flag: flag, path: path)
                try claim(flag, path, isDirectory: true)
                for name in files {
                    let inside = path.hasSuffix("/") ? path + name : path + "/" + name
                    if exists { try file(flag: flag, path: inside) }
                    try claim(flag, inside)
                }
            }
        }
    }

    /// Refuses a path no file output may have.
    static func file(flag: String, path: String) throws(Failure) {
        func refuse(_ reason: String) -> Failure { Failure(message: "\(flag) \(path): \(reason)") }
        guard !path.isEmpty else { throw Failure(message: "\(flag): the path is empty; give a file name") }
        guard !path.hasSuffix("/") else { throw refuse("it names a directory; give a file name") }
        if let info = OSPath.info(path, follow: false) {
            if let kind = refusedKind(info.st_mode, wanted: "a file") { throw refuse(kind) }
        } else if errno != ENOENT {
            throw refuse(StagedFile.osReason())
        }
        try writableDirectory(StagedFile.directory(of: path), refuse)
    }

    /// Refuses a path no directory output may have; true when the directory exists (its
    /// files can then be checked), false when it will be created.
    static func directory(flag: String, path: String) throws(Failure) -> Bool {
        func refuse(_ reason: String) -> Failure { Failure(message: "\(flag) \(path): \(reason)") }
        guard !path.isEmpty else { throw Failure(message: "\(flag): the path is empty; give a directory") }
        if let info = OSPath.info(path, follow: false) {
            if info.st_mode & S_IFMT == S_IFLNK {
                throw refuse("it is a symbolic link; give the directory itself (iapsim does not write through links)")
            }
            guard info.st_mode & S_IFMT == S_IFDIR else { throw refuse("it is not a directory; give a directory") }
            try writableDirectory(path, refuse)
            return true
        }
        // Not there (or a part of it is a file): created, if its nearest existing parent is
        // a directory that takes it.
        guard errno == ENOENT || errno == ENOTDIR else { throw refuse(StagedFile.osReason()) }
        // Created with its missing parents: the nearest one that exists must take them.
        var parent = StagedFile.directory(of: path.hasSuffix("/") ? String(path.dropLast()) : path)
        while OSPath.info(parent) == nil && (errno == ENOENT || errno == ENOTDIR) && parent != "." && parent != "/" {
            parent = StagedFile.directory(of: parent)
        }
        try writableDirectory(parent, refuse)
        return false
    }

    /// Why a file of this kind cannot be an output, or nil for a regular file.
    static func refusedKind(_ mode: mode_t, wanted: String) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "it is a directory; give \(wanted) name"
        case S_IFLNK: return "it is a symbolic link; give the file itself (iapsim does not write through links)"
        case S_IFIFO: return "it is a FIFO (named pipe); give a regular file"
        case S_IFCHR, S_IFBLK: return "it is a device; give a regular file"
        case S_IFSOCK: return "it is a socket; give a regular file"
        default: return "it is not a regular file; give a regular file"
        }
    }

    private static func writableDirectory(_ dir: String, _ refuse: (String) -> Failure) throws(Failure) {
        guard let info = OSPath.info(dir) else {
            throw refuse("cannot write in \(dir): \(StagedFile.osReason())")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw refuse("\(dir) is not a directory") }
        guard OSPath.canWrite(dir) else {
            throw refuse("cannot write in \(dir): \(StagedFile.osReason())")
        }
    }
}

/// The OS's calls with a path as bytes (`FileName`): a name that is not UTF-8 is the name
/// given, not another.
enum OSPath {
    /// `stat` (or `lstat`, when `follow` is false) of `path`; nil with `errno` set.
    static func info(_ path: String, follow: Bool = true) -> stat? {
        var info = stat()
        let status = FileName.withCString(path) { follow ? stat($0, &info) : lstat($0, &info) }
        return status == 0 ? info : nil
    }

    /// Whether files can be created in the directory `path`.
    static func canWrite(_ path: String) -> Bool {
        FileName.withCString(path) { access($0, W_OK | X_OK) } == 0
    }

    /// The bytes of a C string.
    static func bytes(_ cString: UnsafePointer<CChar>) -> [UInt8] {
        Array(
            UnsafeBufferPointer(
                start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString)))
    }
}

/// What makes two paths the same file: device and inode when it exists, else the real
/// path of its directory and its name.
enum FileIdentity: Equatable {
    case existing(dev: UInt64, ino: UInt64)
    case planned([UInt8])

    init?(_ path: String) {
        if let info = OSPath.info(path) {
            self = .existing(dev: UInt64(info.st_dev), ino: UInt64(info.st_ino))
            return
        }
        // Not there yet: the real path of its nearest existing parent, then the parts that
        // will be made (a directory output's files included), `.` and `..` read as the OS will.
        var parent = StagedFile.directory(of: path)
        var rest = [path.split(separator: "/").last.map(String.init) ?? path]
        var real = FileName.withCString(parent) { realpath($0, nil) }
        while real == nil, errno == ENOENT || errno == ENOTDIR, parent != "." && parent != "/" {
            rest.insert(parent.split(separator: "/").last.map(String.init) ?? parent, at: 0)
            parent = StagedFile.directory(of: parent)
            real = FileName.withCString(parent) { realpath($0, nil) }
        }
        guard let real else { return nil }
        defer { free(real) }
        var parts = OSPath.bytes(real).split(separator: UInt8(ascii: "/")).map(Array.init)
        for part in rest where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(FileName.bytes(part)) }
        }
        self = .planned(parts.flatMap { [UInt8(ascii: "/")] + $0 })
    }
}
