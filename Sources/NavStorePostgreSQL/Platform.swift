// The platform's C library and Foundation, imported once for every file of the target
// (re-exported, so no other file repeats them; FoundationEssentials where the toolchain has it,
// the whole of Foundation otherwise).
#if canImport(Glibc)
    @_exported @preconcurrency import Glibc
#elseif canImport(Musl)
    @_exported @preconcurrency import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#endif
