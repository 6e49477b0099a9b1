/// IMF-fixdate (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`), the form of `Last-Modified`. Pure: civil dates
/// from Unix seconds by Howard Hinnant's `civil_from_days`, no C library and no formatter.
package enum IMFDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `second` (Unix seconds, UTC) as IMF-fixdate.
    package static func format(_ second: Int64) -> String {
        let (day, secondOfDay) = floorDivide(second, 86_400)
        let weekday = days[Int(floorDivide(day, 7).remainder)]
        let (year, month, dayOfMonth) = civil(fromDays: day)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let hour = secondOfDay / 3600
        let minute = secondOfDay % 3600 / 60
        let sec = secondOfDay % 60
        return
            "\(weekday), \(two(dayOfMonth)) \(months[Int(month - 1)]) \(year) \(two(hour)):\(two(minute)):\(two(sec)) GMT"
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// Year, month (1...12) and day (1...31) of the day `days` after 1970-01-01.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
