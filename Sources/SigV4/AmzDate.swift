/// The two date forms SigV4 signs: `20130524T000000Z` (x-amz-date) and `20130524` (the scope), in UTC. Computed from
/// Unix seconds with the civil-from-days algorithm, so signing needs neither Foundation's formatters nor a locale.
package struct AmzDate: Sendable, Equatable {
    /// `yyyyMMdd'T'HHmmss'Z'`.
    package let timestamp: String
    /// `yyyyMMdd`.
    package var day: Substring { timestamp.prefix(8) }

    package init(unixSeconds: Int64) {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondsOfDay = unixSeconds - days * 86_400
        let (year, month, day) = Self.civil(daysSinceEpoch: days)
        let hour = secondsOfDay / 3600
        let minute = secondsOfDay % 3600 / 60
        let second = secondsOfDay % 60
        timestamp =
            Self.pad(year, 4) + Self.pad(month, 2) + Self.pad(day, 2) + "T" + Self.pad(hour, 2) + Self.pad(minute, 2)
            + Self.pad(second, 2) + "Z"
    }

    /// Year, month and day of the proleptic Gregorian calendar for a count of days since 1970-01-01.
    static func civil(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
