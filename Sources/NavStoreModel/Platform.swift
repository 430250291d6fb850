// The platform's C library and Foundation, imported once for the package: re-exported here, and
// by every target through its import of NavStoreModel (FoundationEssentials where the toolchain
// has it, the whole of Foundation otherwise).
#if canImport(Glibc)
    @_exported @preconcurrency import Glibc
#elseif canImport(Musl)
    @_exported @preconcurrency import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#endif
#if canImport(FoundationEssentials)
    @_exported import FoundationEssentials
#else
    @_exported import Foundation
#endif

/// The C library's standard streams: global variables, which the import above is
/// `@preconcurrency` for in this file alone, so the other files reach them through here.
package enum Platform {
    #if canImport(Musl)
        /// A C stream.
        package typealias Stream = OpaquePointer
    #else
        /// A C stream.
        package typealias Stream = UnsafeMutablePointer<FILE>
    #endif

    /// `stdout`.
    package static var standardOutput: Stream { stdout }
    /// `stderr`.
    package static var standardError: Stream { stderr }
}
