#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Frame timings, appended on exit to the file `IAPSIM_FRAME_STATS` names (for benchmarks).
struct FrameStats {
    var frames = 0
    var renderTotalUs: Int64 = 0
    var renderMaxUs: Int64 = 0
    var diffTotalUs: Int64 = 0
    var diffMaxUs: Int64 = 0
    var outputTotalUs: Int64 = 0
    var outputMaxUs: Int64 = 0
    var frameMaxUs: Int64 = 0

    /// One frame: `render` of the model, the diff and the curses calls for changed cells,
    /// and `doupdate` (the bytes to the terminal).
    mutating func record(renderUs: Int64, diffUs: Int64, outputUs: Int64) {
        frames += 1
        renderTotalUs += renderUs
        diffTotalUs += diffUs
        outputTotalUs += outputUs
        renderMaxUs = max(renderMaxUs, renderUs)
        diffMaxUs = max(diffMaxUs, diffUs)
        outputMaxUs = max(outputMaxUs, outputUs)
        frameMaxUs = max(frameMaxUs, renderUs + diffUs + outputUs)
    }

    /// One line: frame count, mean and max (µs) of render, diff, output, and all three.
    func line(size: (Int, Int)) -> String {
        let n = Int64(max(frames, 1))
        return "frames=\(frames) size=\(size.0)x\(size.1)"
            + " render_mean_us=\(renderTotalUs / n) render_max_us=\(renderMaxUs)"
            + " diff_mean_us=\(diffTotalUs / n) diff_max_us=\(diffMaxUs)"
            + " output_mean_us=\(outputTotalUs / n) output_max_us=\(outputMaxUs)"
            + " frame_mean_us=\((renderTotalUs + diffTotalUs + outputTotalUs) / n)"
            + " frame_max_us=\(frameMaxUs)\n"
    }

    /// Appends `line` to `$IAPSIM_FRAME_STATS` when it is set; silent on failure.
    func appendIfAsked(size: (Int, Int)) {
        guard let raw = getenv("IAPSIM_FRAME_STATS") else { return }
        let path = String(cString: raw)
        guard !path.isEmpty, let file = fopen(path, "a") else { return }
        fputs(line(size: size), file)
        fclose(file)
    }
}
