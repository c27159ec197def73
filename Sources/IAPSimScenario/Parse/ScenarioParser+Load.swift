#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ScenarioParser {
    /// The largest scenario file read: far above any real scenario (the shipped ones are a
    /// few KB), small enough that reading and checking it stays well under a second.
    package static let maxFileBytes = FileLimits.maxFileBytes

    /// Reads and parses the file at `path`; `path` is also the name errors show.
    /// The only file I/O of this module.
    ///
    /// Only a regular file is read: a directory, a FIFO or a device is refused before
    /// anything could block on it (it is opened with `O_NONBLOCK` and checked again once
    /// open), and a file over `maxFileBytes` is refused before its bytes are read.
    package static func load(path: String, options: CatalogOptions = CatalogOptions()) throws(ScenarioError) -> Scenario
    {
        let bytes = try readRegularFile(path)
        return try parse(bytes: bytes, file: path, options: options)
    }

    /// The bytes of the regular file at `path`, at most `limit` of them (else `fileTooLarge`).
    package static func readRegularFile(_ path: String, limit: Int = maxFileBytes) throws(ScenarioError) -> [UInt8] {
        let start = SourceLocation(file: path, line: 1, column: 1)
        func refuse(_ reason: String) -> ScenarioError { .unreadableFile(at: start, reason: reason) }
        var info = stat()
        // The name's own bytes (`FileName`), not another name's.
        guard FileName.withCString(path, { stat($0, &info) }) == 0 else {
            throw refuse(errno == ENOENT ? "no such file" : osReason())
        }
        try checkKind(info, refuse)
        let fd = FileName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw refuse(osReason()) }
        defer { close(fd) }
        // The path may have been swapped between stat and open: check what was opened.
        guard fstat(fd, &info) == 0 else { throw refuse(osReason()) }
        try checkKind(info, refuse)
        guard Int(info.st_size) <= limit else {
            throw .fileTooLarge(at: start, bytes: Int(info.st_size), limit: limit)
        }
        // Read until the end, or one byte past the limit if the file grew since fstat.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw refuse(osReason())
            }
            bytes += chunk[..<n]
        }
        guard bytes.count <= limit else {
            throw .fileTooLarge(at: start, bytes: bytes.count, limit: limit)
        }
        return bytes
    }

    private static func checkKind(
        _ info: stat, _ refuse: (String) -> ScenarioError
    ) throws(ScenarioError) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw refuse("it is a directory, not a scenario file")
        case S_IFIFO: throw refuse("it is a FIFO (named pipe), not a regular file")
        case S_IFCHR, S_IFBLK: throw refuse("it is a device, not a regular file")
        case S_IFSOCK: throw refuse("it is a socket, not a regular file")
        default: throw refuse("it is not a regular file")
        }
    }

    /// The OS's words for the last error (`Permission denied`).
    static func osReason() -> String { String(cString: strerror(errno)) }
}
