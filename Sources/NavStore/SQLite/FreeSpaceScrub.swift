/// What a page of an SQLite database file holds besides its cells, and how to zero it, from the
/// file format's description (https://sqlite.org/fileformat2.html, §1.6 "B-tree Pages", §1.5 "The
/// Freelist", §1.7 "Cell Payload Overflow Pages"): the pure part of ``Connection/scrubFreeSpace(busyTimeoutMilliseconds:)-(Int)``.
///
/// Why it is needed: `PRAGMA secure_delete` zeros a deleted cell where it lies, but when SQLite
/// rebalances a B-tree it rebuilds a page by writing its cells afresh from the page's end, and
/// the bytes between the new cell content area and the cell pointer array keep whatever they held,
/// copies of cells that moved to a sibling page among them. Those copies outlive the rows: a row
/// deleted later is zeroed where it lives now, not where it was copied from. Zeroing every byte of
/// a page that no cell, header, pointer or freeblock header uses removes them.
package enum FreeSpaceScrub {
    /// A B-tree page's layout, read from its header.
    package struct BTreePage {
        /// The page type: 2 index interior, 5 table interior, 10 index leaf, 13 table leaf.
        package var type: UInt8
        /// The offset of the page header (100 on page 1, after the database header; else 0).
        package var headerOffset: Int
        /// The child page numbers (interior pages: each cell's left child, then the right-most).
        package var children: [UInt32] = []
        /// The overflow chains its cells start: the first overflow page and the payload bytes
        /// stored on the chain.
        package var overflows: [(page: UInt32, bytes: Int)] = []
    }

    /// The number stored big-endian in `count` bytes at `offset`.
    @inline(__always)
    static func number(_ page: UnsafeMutableRawBufferPointer, _ offset: Int, _ count: Int) -> Int {
        var value = 0
        for i in 0..<count { value = value << 8 | Int(page[offset + i]) }
        return value
    }

    /// Zeros `range` of `page`; whether a byte was not zero.
    package static func zero(_ page: UnsafeMutableRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty, let base = page.baseAddress else { return false }
        let start = base + range.lowerBound
        // The first byte that is not zero, if any: memchr-free, a word at a time in C.
        var isZero = start.load(as: UInt8.self) == 0
        if isZero, range.count > 1 { isZero = memcmp(start, start + 1, range.count - 1) == 0 }
        if isZero { return false }
        memset(start, 0, range.count)
        return true
    }

    /// A varint at `offset` (1 to 9 bytes, https://sqlite.org/fileformat2.html §1.6): its value
    /// and length, or `nil` when it runs past `end`.
    static func varint(_ page: UnsafeMutableRawBufferPointer, _ offset: Int, end: Int) -> (value: UInt64, length: Int)? {
        var value: UInt64 = 0
        for i in 0..<9 {
            guard offset + i < end else { return nil }
            let byte = page[offset + i]
            if i == 8 { return (value << 8 | UInt64(byte), 9) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (value, i + 1) }
        }
        return nil
    }

    /// The bytes the cell at offset `cell` of a page of B-tree type `type` spans: its child
    /// pointer, header and the part of its payload kept on the page, and the 4-byte number of its
    /// overflow chain (https://sqlite.org/fileformat2.html §1.6). Its child and chain are added to
    /// `layout`. `nil` when its header runs past the usable space.
    private static func cellSize(
        _ page: UnsafeMutableRawBufferPointer, at cell: Int, type: UInt8, usableSize u: Int, layout: inout BTreePage
    ) -> Int? {
        let interior = type == 2 || type == 5
        var at = cell
        if interior {
            guard cell + 4 <= u else { return nil }
            layout.children.append(UInt32(number(page, cell, 4)))
            at += 4
        }
        if type == 5 {
            guard let rowid = varint(page, at, end: u) else { return nil }
            return at + rowid.length - cell
        }
        guard let payload = varint(page, at, end: u), payload.value <= UInt64(Int32.max) else { return nil }
        at += payload.length
        if type == 13 {
            guard let rowid = varint(page, at, end: u) else { return nil }
            at += rowid.length
        }
        // Payload sizes kept on the page.
        let maxLocal = type == 13 ? u - 35 : (u - 12) * 64 / 255 - 23
        let minLocal = (u - 12) * 32 / 255 - 23
        let total = Int(payload.value)
        var kept = total
        if total > maxLocal {
            let k = minLocal + (total - minLocal) % (u - 4)
            kept = k <= maxLocal ? k : minLocal
        }
        let size = at + kept - cell
        if kept < total {
            guard at + kept + 4 <= u else { return nil }
            layout.overflows.append((UInt32(number(page, at + kept, 4)), total - kept))
            return size + 4
        }
        return max(size, 4)
    }

    /// The freeblocks of a page from the first at `first`: a chain in increasing order of
    /// offset, each at least 4 bytes; `nil` when the chain does not add up.
    private static func freeblocks(_ page: UnsafeMutableRawBufferPointer, first: Int, usableSize u: Int)
        -> [(start: Int, end: Int)]?
    {
        var blocks: [(start: Int, end: Int)] = []
        var next = first
        while next != 0 {
            guard next + 4 <= u else { return nil }
            let size = number(page, next + 2, 2)
            guard size >= 4 else { return nil }
            blocks.append((next, next + size))
            let following = number(page, next, 2)
            guard following == 0 || following > next + size else { return nil }
            next = following
        }
        return blocks
    }

    /// Zeros the bytes of the B-tree page `page` (number `pageNumber`) that nothing uses: the
    /// unallocated space between the cell pointer array and the cell content area, freeblocks
    /// past their 4-byte headers, and fragments. Bytes past `usableSize` (reserved for
    /// extensions) are left alone.
    /// - Returns: the page's layout (its children and overflow chains, for the walk), and whether
    ///   a byte changed; `nil`, with nothing changed, when the page is not a B-tree page or its
    ///   header, cells or freeblocks do not add up (a page is only ever changed when every used
    ///   byte is accounted for).
    package static func scrubBTreePage(_ page: UnsafeMutableRawBufferPointer, pageNumber: UInt32, usableSize: Int)
        -> (layout: BTreePage, changed: Bool)?
    {
        let u = usableSize
        guard u >= 480, page.count >= u else { return nil }
        let h = pageNumber == 1 ? 100 : 0
        let type = page[h]
        guard type == 2 || type == 5 || type == 10 || type == 13 else { return nil }
        let interior = type == 2 || type == 5
        let headerSize = interior ? 12 : 8
        let firstFreeblock = number(page, h + 1, 2)
        let cellCount = number(page, h + 3, 2)
        var contentStart = number(page, h + 5, 2)
        if contentStart == 0 { contentStart = 65536 }
        let pointersEnd = h + headerSize + 2 * cellCount
        guard pointersEnd <= contentStart, contentStart <= u else { return nil }
        // What the content area holds: cells, and freeblocks (whose first 4 bytes stay).
        var held: [(start: Int, end: Int, isFreeblock: Bool)] = []
        held.reserveCapacity(cellCount + 4)
        func claim(_ start: Int, _ end: Int, freeblock: Bool = false) -> Bool {
            guard start >= contentStart, start < end, end <= u else { return false }
            held.append((start, end, freeblock))
            return true
        }
        var layout = BTreePage(type: type, headerOffset: h)
        for index in 0..<cellCount {
            let cell = number(page, h + headerSize + 2 * index, 2)
            guard cell >= contentStart, cell < u,
                let size = cellSize(page, at: cell, type: type, usableSize: u, layout: &layout),
                claim(cell, cell + size)
            else { return nil }
        }
        if interior { layout.children.append(UInt32(number(page, h + 8, 4))) }
        guard let blocks = freeblocks(page, first: firstFreeblock, usableSize: u) else { return nil }
        for block in blocks {
            guard claim(block.start, block.end, freeblock: true) else { return nil }
        }
        // In order of offset, nothing may overlap; what no cell or freeblock holds in the content
        // area are fragments (of less than 4 bytes each), which the header counts: a page whose
        // count differs is not read as SQLite reads it, and is left alone.
        held.sort { $0.start < $1.start }
        var heldBytes = 0
        for (index, range) in held.enumerated() {
            if index > 0, held[index - 1].end > range.start { return nil }
            heldBytes += range.end - range.start
        }
        guard u - contentStart - heldBytes == Int(page[h + 7]) else { return nil }
        // Headers and pointers stay, and so do cells and each freeblock's link and size; every
        // other byte of the usable space is zeroed.
        var changed = false
        var cursor = pointersEnd
        for range in held {
            changed = zero(page, cursor..<range.start) || changed
            cursor = range.isFreeblock ? range.start + 4 : range.end
        }
        changed = zero(page, cursor..<u) || changed
        return (layout, changed)
    }
}
