internal import FeedServer

/// A `Range` header against a file of some size: a partial range lies inside the file, and a well-formed
/// `bytes=FIRST-LAST` inside it is answered with exactly that range.
enum ByteRangeContract {
    static let target = FuzzTarget(
        name: "range", contract: "a partial range never leaves the file; bytes=a-b inside it is exactly a...b"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        // The first four bytes the file's size, the rest the header.
        let size = Int(bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let header = String(decoding: bytes.dropFirst(4), as: UTF8.self)
        let request = ByteRangeRequest(header: header, size: size)
        if case let .partial(range) = request {
            try expect(
                range.lowerBound >= 0 && range.upperBound < size,
                "\(header.debugDescription) gave \(range) of a \(size)-byte file")
        }
        let digits = header.split(separator: "-", omittingEmptySubsequences: false)
        if header.hasPrefix("bytes="), digits.count == 2,
            let first = Int(digits[0].dropFirst("bytes=".count)), let last = Int(digits[1]),
            digits[0].dropFirst("bytes=".count).allSatisfy(\.isASCIIDigit), digits[1].allSatisfy(\.isASCIIDigit),
            first <= last, last < size
        {
            try expect(request == .partial(first...last), "\(header.debugDescription) gave \(request), size \(size)")
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
