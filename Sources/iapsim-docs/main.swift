// `swift run iapsim-docs`: writes every generated block of the docs (README.md, docs/server-api.md,
// docs/scenario-format.md, docs/world.md) from the code's tables, in place.
// `swift run iapsim-docs --check`: changes nothing; exits 1 naming each stale block.
// A file whose markers cannot be read (an unknown block name, a block never closed) exits 2.
import Foundation
import IAPSimDocs

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.allSatisfy({ $0 == "--check" }) else {
    FileHandle.standardError.write(Data("Error: unknown argument; usage: iapsim-docs [--check]\n".utf8))
    exit(2)
}
let check = arguments.contains("--check")

/// The package's root: the nearest folder up from here that holds Package.swift.
func packageRoot() -> URL {
    var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        let parent = folder.deletingLastPathComponent()
        if parent.path == folder.path {
            FileHandle.standardError.write(Data("Error: no Package.swift here or above; run it in the checkout\n".utf8))
            exit(2)
        }
        folder = parent
    }
    return folder
}

/// Writes `text` into a new file beside `path` (`O_CREAT|O_EXCL|O_NOFOLLOW`, 0644, under a
/// name no one else holds) and renames it onto `path`: a link at the doc's place is replaced,
/// never followed, and a failure leaves the doc as it was.
func replace(_ path: String, with text: String) throws {
    let staging = path + ".iapsim-docs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
            let code = errno
            close(fd)
            unlink(staging)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        bytes = bytes.dropFirst(n)
    }
    guard fsync(fd) == 0, close(fd) == 0, rename(staging, path) == 0 else {
        let code = errno
        unlink(staging)
        throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
}

let root = packageRoot()
var stale: [String] = []
for file in DocBlocks.files {
    let url = root.appendingPathComponent(file)
    do {
        let text = try String(contentsOf: url, encoding: .utf8)
        let blocks = try DocRegeneration.blocks(in: text)
        stale += blocks.filter(\.isStale).map { "\(file):\($0.line): block '\($0.name)' differs from the code's table" }
        if !check, blocks.contains(where: \.isStale) {
            try replace(url.path, with: DocRegeneration.regenerate(text))
        }
    } catch let failure as DocRegeneration.Failure {
        FileHandle.standardError.write(Data("Error: \(file):\(failure.line): \(failure.problem)\n".utf8))
        exit(2)
    } catch {
        FileHandle.standardError.write(Data("Error: \(file): \(error.localizedDescription)\n".utf8))
        exit(2)
    }
}
if check {
    for line in stale { print(line) }
    if !stale.isEmpty {
        print("\(stale.count) stale block(s); run `swift run iapsim-docs` to write them")
        exit(1)
    }
    print("every generated block is up to date")
} else {
    for line in stale { print(line.replacingOccurrences(of: "differs from the code's table", with: "written")) }
    print(stale.isEmpty ? "every generated block was already up to date" : "\(stale.count) block(s) written")
}
