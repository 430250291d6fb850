/// Numbers, as the store writes them (see ``PayloadReader``).
extension PayloadReader {
    /// An integer of 1-18 digits with an optional minus (no leading zeros, no `-0`), which every
    /// reader takes as the same `Int64`; `nil` for any other number (left to the reference).
    package mutating func integer() -> Int64? {
        guard let first = skipSpaceAndPeek() else { return nil }
        var position = index
        let negative = first == UInt8(ascii: "-")
        if negative { position += 1 }
        let digitsStart = position
        var value: Int64 = 0
        while position < end {
            let byte = base[position]
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { break }
            value = value &* 10 &+ Int64(byte - UInt8(ascii: "0"))
            position += 1
        }
        let digits = position - digitsStart
        guard digits >= 1, digits <= 18 else { return nil }
        if base[digitsStart] == UInt8(ascii: "0") && (digits > 1 || negative) { return nil }
        guard endsNumber(at: position) else { return nil }
        index = position
        return negative ? -value : value
    }

    /// A number with a fraction and no exponent (`-12.5`), at most 17 digits in all and a
    /// fraction not all zeros, which the reference reads as that `Double` (not an `Int64`: it
    /// is no whole number) and which every correctly rounded parser reads alike; `nil` for any
    /// other number.
    package mutating func fraction() -> Double? {
        guard let first = skipSpaceAndPeek() else { return nil }
        var position = index
        if first == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        while position < end, base[position] >= UInt8(ascii: "0"), base[position] <= UInt8(ascii: "9") { position += 1 }
        let integerDigits = position - integerStart
        guard integerDigits >= 1, base[integerStart] != UInt8(ascii: "0") || integerDigits == 1 else { return nil }
        guard position < end, base[position] == UInt8(ascii: ".") else { return nil }
        position += 1
        let fractionStart = position
        var nonZero = false
        while position < end, base[position] >= UInt8(ascii: "0"), base[position] <= UInt8(ascii: "9") {
            if base[position] != UInt8(ascii: "0") { nonZero = true }
            position += 1
        }
        let fractionDigits = position - fractionStart
        guard fractionDigits >= 1, nonZero, integerDigits + fractionDigits <= 17 else { return nil }
        guard endsNumber(at: position) else { return nil }
        guard
            let number = Double(
                String(decoding: UnsafeBufferPointer(start: base + index, count: position - index), as: UTF8.self))
        else { return nil }
        index = position
        return number
    }

    /// Whether a number may end before `position`: the end of the text, a comma, a closing
    /// bracket or brace, or JSON whitespace (anything else, `e` or a digit past the limit, is a
    /// longer number left to the reference).
    package func endsNumber(at position: Int) -> Bool {
        guard position < end else { return true }
        let next = base[position]
        return next == Self.comma || next == Self.closeBrace || next == Self.closeBracket || next == 0x20
            || next == 0x0A || next == 0x0D || next == 0x09
    }
}
