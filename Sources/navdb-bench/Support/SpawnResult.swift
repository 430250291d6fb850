/// The result of a finished child process.
struct SpawnResult {
    /// The exit status, or 128 + the signal number when it was killed.
    var status: Int32
    /// Wall-clock seconds from `posix_spawn` to `wait4` returning.
    var seconds: Double
    /// CPU seconds (user + system) the child used, from `wait4`'s `rusage`: unlike the wall
    /// clock, it leaves out waiting for fsync and for other processes on a busy machine.
    var cpuSeconds: Double
    /// The child's peak resident set in KiB (`wait4`'s `ru_maxrss`).
    var peakKiB: Int = 0
}
