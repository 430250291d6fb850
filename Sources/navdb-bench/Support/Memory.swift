/// A field of `/proc/self/status` in KiB (`VmHWM` is the peak resident set, `VmRSS` the current
/// one); `nil` where `/proc` is not available.
func procStatusKiB(_ field: String) -> Int? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0 {
        let text = String(cString: line!)
        guard text.hasPrefix(field + ":") else { continue }
        let digits = text.dropFirst(field.count + 1).filter(\.isNumber)
        return Int(digits)
    }
    return nil
}

/// The peak resident set of this process in KiB: `VmHWM`, else `getrusage`'s `ru_maxrss`.
func peakResidentKiB() -> Int {
    if let hwm = procStatusKiB("VmHWM") { return hwm }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss)
}
