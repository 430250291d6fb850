/// Symbolic links at a database path: where a new file is created, and what a path resolves to.
extension Connection {
    /// The file a chain of symbolic links at `path` ends in when that file does not exist (each
    /// relative target resolved against its link's directory), or `nil` when `path` is not such
    /// a link. At most 40 links are followed, as the kernel does (`ELOOP`).
    package static func danglingLinkTarget(_ path: String) -> String? {
        var info = stat()
        guard let current = linkChain(path).last, current != path, lstat(current, &info) != 0, errno == ENOENT else {
            return nil
        }
        return current
    }

    /// The chain of symbolic links at `path`: `path` itself, then each link's target (a relative
    /// target resolved against its link's directory), ending in the first path that is not a
    /// link (or does not exist). `[path]` when `path` is not a link. At most 40 links are
    /// followed, as the kernel does (`ELOOP`); the folders on the way are not resolved.
    package static func linkChain(_ path: String) -> [String] {
        var chain = [path]
        var info = stat()
        for _ in 0..<40 {
            let current = chain[chain.count - 1]
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { break }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { break }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") {
                chain.append(target)
            } else if let slash = current.lastIndex(of: "/") {
                chain.append(String(current[...slash]) + target)
            } else {
                chain.append(target)
            }
        }
        return chain
    }
}
