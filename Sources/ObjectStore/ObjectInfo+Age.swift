extension ObjectInfo {
    /// `lastModified` from a listing (ISO 8601, `2026-11-27T16:05:09.000Z`) as Unix seconds, or nil when it is
    /// another form: the sweeps judge an object's age by it and leave an object of unknown age alone. Pure.
    package var modifiedSeconds: Int64? { Self.unixSeconds(iso8601: lastModified) }

    /// `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z`. Pure.
    static func unixSeconds(iso8601 text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"),
            bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        if bytes.count > 20 {
            // Only digits are asked of the fraction: as a number, twenty of them would pass Int64 (a trap).
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21,
                bytes[20..<(bytes.count - 1)].allSatisfy({ (0x30...0x39).contains($0) })
            else {
                return nil
            }
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        return daysFromCivil(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}
