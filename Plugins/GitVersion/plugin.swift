import Foundation
import PackagePlugin

/// Writes `GitVersion.swift` (`let gitCommit = "abc1234"`, empty outside a git checkout)
/// before each build of the executable, so that `iapsim --version` names the commit it was
/// built from. The file is rewritten only when the commit changed: nothing rebuilds otherwise.
@main
struct GitVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let out = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = """
            mkdir -p "$2"
            c="$(git -C "$1" rev-parse --short HEAD 2>/dev/null || true)"
            case "$c" in *[!0-9a-f]*) c="" ;; esac
            printf 'let gitCommit = "%s"\\n' "$c" > "$2/GitVersion.swift.tmp"
            if cmp -s "$2/GitVersion.swift.tmp" "$2/GitVersion.swift"; then rm -f "$2/GitVersion.swift.tmp"
            else mv "$2/GitVersion.swift.tmp" "$2/GitVersion.swift"; fi
            """
        return [
            .prebuildCommand(
                displayName: "iapsim version from git",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, out.path],
                outputFilesDirectory: out)
        ]
    }
}
