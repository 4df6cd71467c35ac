#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// A time zone of the tz database, read from its compiled file
/// (`/usr/share/zoneinfo/NAME`, or under `$TZDIR`; RFC 8536's TZif) or from a
/// POSIX `TZ` rule ("CET-1CEST,M3.5.0,M10.5.0/3"): the offset from UTC at
/// any moment. Foundation's named zones need ICU's data; these need the
/// files every system with tzdata has. UTC needs none.
public struct Zone: Sendable, Equatable {
    /// The name given: "Europe/Berlin", "UTC".
    public let identifier: String
    /// The moments the offset changed, in seconds since 1970 (ascending),
    /// with the offset (seconds east of UTC) from each.
    private let transitions: [Int64]
    private let offsetAfter: [Int32]
    /// The offset before the first change (or always, when none).
    private let initialOffset: Int32
    /// The rule for moments after the last change.
    private let rule: PosixRule?

    public static let utc = Zone(identifier: "UTC", transitions: [], offsetAfter: [], initialOffset: 0, rule: nil)

    private init(identifier: String, transitions: [Int64], offsetAfter: [Int32], initialOffset: Int32, rule: PosixRule?) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsetAfter = offsetAfter
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// The zone of that name in the tz database, nil when there is none:
    /// "Asia/Tokyo", "UTC". Names are read as paths under the database's folder,
    /// so a name with "..", a leading "/" or anything but a TZif file is none.
    public static func named(_ name: String, environment: [String: String] = [:]) -> Zone? {
        if ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z", "Zulu"].contains(name) || name.uppercased() == "UTC" {
            return Zone(identifier: name, transitions: [], offsetAfter: [], initialOffset: 0, rule: nil)
        }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
            name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "\\" })
        else { return nil }
        let folder = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        return file(folder + "/" + name, identifier: name)
    }

    /// The zone a TZif file at `path` describes, nil when it is none.
    static func file(_ path: String, identifier: String) -> Zone? {
        guard let bytes = try? RegularFile.read(path, maxBytes: 1 << 20) else { return nil }
        return parse(Array(bytes), identifier: identifier)
    }

    /// The machine's zone: `$TZ` (a name, ":name", or a POSIX rule; empty is
    /// UTC), else `/etc/localtime` (named by where its link points), else UTC.
    public static func current(environment: [String: String]) -> Zone {
        if let tz = environment["TZ"] {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if name.isEmpty { return .utc }
            if let zone = named(name, environment: environment) { return zone }
            if let rule = PosixRule(name) {
                return Zone(identifier: name, transitions: [], offsetAfter: [], initialOffset: rule.standardOffset, rule: rule)
            }
            return .utc
        }
        let link = FileSystem.linkTarget("/etc/localtime") ?? ""
        let name = link.firstRange(of: "zoneinfo/").map { String(link[$0.upperBound...]) } ?? "localtime"
        return file("/etc/localtime", identifier: name) ?? .utc
    }

    /// Seconds east of UTC at `moment`.
    public func secondsFromGMT(for moment: Date) -> Int {
        let time = Int64(moment.timeIntervalSince1970.rounded(.down))
        guard let last = transitions.last else { return Int(rule?.offset(at: time) ?? initialOffset) }
        if time >= last, let rule { return Int(rule.offset(at: time)) }
        // The last change at or before `time`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return Int(low == 0 ? initialOffset : offsetAfter[low - 1])
    }

    // MARK: - TZif

    /// Reads a TZif file: version 1's 32-bit block, or the 64-bit block and
    /// the footer's rule of version 2 and later.
    static func parse(_ bytes: [UInt8], identifier: String) -> Zone? {
        var reader = TZifReader(bytes: bytes)
        guard let first = reader.header() else { return nil }
        var counts = first
        var timeSize = 4
        if first.version >= 2 {
            // Past version 1's block to the 64-bit one.
            guard reader.skip(first.dataLength(timeSize: 4)), let second = reader.header() else { return nil }
            counts = second
            timeSize = 8
        }
        guard counts.typeCount > 0 else { return nil }
        var times: [Int64] = []
        times.reserveCapacity(counts.timeCount)
        for _ in 0..<counts.timeCount {
            guard let time = timeSize == 8 ? reader.int64() : reader.int32().map(Int64.init) else { return nil }
            times.append(time)
        }
        var typeIndices: [Int] = []
        for _ in 0..<counts.timeCount {
            guard let index = reader.byte(), Int(index) < counts.typeCount else { return nil }
            typeIndices.append(Int(index))
        }
        var offsets: [Int32] = []
        for _ in 0..<counts.typeCount {
            guard let offset = reader.int32(), reader.skip(2) else { return nil }
            offsets.append(offset)
        }
        guard reader.skip(counts.characterCount + counts.leapCount * (timeSize + 4) + counts.standardCount + counts.utcCount)
        else { return nil }
        var rule: PosixRule?
        if timeSize == 8, let footer = reader.footer(), !footer.isEmpty {
            rule = PosixRule(footer)
        }
        return Zone(
            identifier: identifier, transitions: times, offsetAfter: typeIndices.map { offsets[$0] }, initialOffset: offsets[0],
            rule: rule)
    }

    private struct Counts {
        var version: Int
        var utcCount: Int
        var standardCount: Int
        var leapCount: Int
        var timeCount: Int
        var typeCount: Int
        var characterCount: Int

        func dataLength(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4) + standardCount + utcCount
        }
    }

    private struct TZifReader {
        let bytes: [UInt8]
        var index = 0

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, index + count <= bytes.count else { return false }
            index += count
            return true
        }

        mutating func byte() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func int32() -> Int32? {
            guard index + 4 <= bytes.count else { return nil }
            defer { index += 4 }
            return Int32(bitPattern: bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) })
        }

        mutating func int64() -> Int64? {
            guard index + 8 <= bytes.count else { return nil }
            defer { index += 8 }
            return Int64(bitPattern: bytes[index..<index + 8].reduce(0) { $0 << 8 | UInt64($1) })
        }

        mutating func header() -> Counts? {
            guard index + 44 <= bytes.count, Array(bytes[index..<index + 4]) == Array("TZif".utf8) else { return nil }
            let version = bytes[index + 4] == 0 ? 1 : Int(bytes[index + 4]) - Int(UInt8(ascii: "0"))
            index += 20
            var values: [Int] = []
            for _ in 0..<6 {
                guard let value = int32(), value >= 0, value < 1 << 20 else { return nil }
                values.append(Int(value))
            }
            return Counts(
                version: version, utcCount: values[0], standardCount: values[1], leapCount: values[2], timeCount: values[3],
                typeCount: values[4], characterCount: values[5])
        }

        /// The rule between the two line feeds after the 64-bit block.
        mutating func footer() -> String? {
            guard index < bytes.count, bytes[index] == 0x0A else { return nil }
            guard let end = bytes[(index + 1)...].firstIndex(of: 0x0A) else { return nil }
            return String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        }
    }
}

/// A POSIX `TZ` rule: a standard offset and, optionally, a daylight-saving
/// offset with the rules of when it starts and ends each year
/// ("EST5EDT,M3.2.0,M11.1.0", "<+10>-10", "AEST-10AEDT,M10.1.0,M4.1.0/3").
struct PosixRule: Sendable, Equatable {
    /// Seconds east of UTC.
    let standardOffset: Int32
    let daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        let offset: Int32
        let start: Change
        let end: Change
    }

    /// A day of the year and a local time (seconds, may be negative or past a day).
    struct Change: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// Mm.w.d: the w-th (5: last) weekday d (0 Sunday) of month m.
            case weekday(month: Int, week: Int, weekday: Int)
            /// Jn: day 1–365, February 29 never counted.
            case julian(Int)
            /// n: day 0–365, February 29 counted.
            case zeroBased(Int)
        }

        let day: Day
        let time: Int64
    }

    init?(_ text: String) {
        var scanner = RuleScanner(Array(text.utf8))
        guard scanner.name(), let standard = scanner.offset() else { return nil }
        standardOffset = Int32(-standard)
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if !scanner.atEnd, scanner.peek != UInt8(ascii: ",") {
            guard let offset = scanner.offset() else { return nil }
            daylightOffset = Int32(-offset)
        }
        if scanner.atEnd {
            // No rule: the United States' since 2007, as POSIX leaves it to the system.
            daylight = Daylight(
                offset: daylightOffset, start: Change(day: .weekday(month: 3, week: 2, weekday: 0), time: 7200),
                end: Change(day: .weekday(month: 11, week: 1, weekday: 0), time: 7200))
            return
        }
        guard scanner.take(","), let start = scanner.change(), scanner.take(","), let end = scanner.change(), scanner.atEnd else {
            return nil
        }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }

    /// Seconds east of UTC at `time` (seconds since 1970).
    func offset(at time: Int64) -> Int32 {
        guard let daylight else { return standardOffset }
        let year = Timestamp.civil(fromDays: (time + Int64(standardOffset)).floorDivided(by: 86_400)).0
        // The changes of that year, in UTC: the start in standard time, the end in daylight time.
        let start = daylight.start.moment(in: year) - Int64(standardOffset)
        let end = daylight.end.moment(in: year) - Int64(daylight.offset)
        let inDaylight = start < end ? (time >= start && time < end) : !(time >= end && time < start)
        return inDaylight ? daylight.offset : standardOffset
    }
}

extension PosixRule.Change {
    /// Seconds since 1970 of this change's local time in `year`, as if UTC.
    func moment(in year: Int) -> Int64 {
        let january1 = Timestamp.days(year: year, month: 1, day: 1)
        let leap = Timestamp.daysIn(month: 2, year: year) == 29
        let dayNumber: Int64
        switch day {
        case .julian(let n):
            dayNumber = january1 + Int64(n - 1) + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            dayNumber = january1 + Int64(n)
        case .weekday(let month, let week, let weekday):
            let first = Timestamp.days(year: year, month: month, day: 1)
            // 1970-01-01 was a Thursday (4).
            let firstWeekday = (first + 4).floorModulo(7)
            var dayOfMonth = 1 + (Int64(weekday) - firstWeekday).floorModulo(7) + Int64(week - 1) * 7
            let length = Int64(Timestamp.daysIn(month: month, year: year))
            while dayOfMonth > length { dayOfMonth -= 7 }
            dayNumber = first + dayOfMonth - 1
        }
        return dayNumber * 86_400 + time
    }
}

/// Reads a POSIX TZ rule's parts.
private struct RuleScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    mutating func take(_ character: Character) -> Bool {
        guard let byte = character.asciiValue, peek == byte else { return false }
        index += 1
        return true
    }

    /// A zone's abbreviation: three or more letters, or anything in <…>.
    mutating func name() -> Bool {
        if take("<") {
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")), close - index >= 3 else { return false }
            index = close + 1
            return true
        }
        let start = index
        while let byte = peek, (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) { index += 1 }
        return index - start >= 3
    }

    /// [+-]hh[:mm[:ss]] in seconds (POSIX's sign: west of UTC is positive).
    mutating func offset() -> Int64? {
        var sign: Int64 = 1
        if take("-") { sign = -1 } else { _ = take("+") }
        guard let seconds = clock(maxHours: 24) else { return nil }
        return sign * seconds
    }

    /// hh[:mm[:ss]] in seconds.
    mutating func clock(maxHours: Int64) -> Int64? {
        guard let hours = number(), hours <= maxHours else { return nil }
        var seconds = hours * 3600
        if take(":") {
            guard let minutes = number(), minutes < 60 else { return nil }
            seconds += minutes * 60
            if take(":") {
                guard let rest = number(), rest < 60 else { return nil }
                seconds += rest
            }
        }
        return seconds
    }

    mutating func number() -> Int64? {
        let start = index
        var value: Int64 = 0
        while let byte = peek, byte >= 0x30, byte <= 0x39, index - start < 4 {
            value = value * 10 + Int64(byte - 0x30)
            index += 1
        }
        return index > start ? value : nil
    }

    /// A change: a day (Mm.w.d, Jn or n), then /time (RFC 8536 lets it be -167 to 167 hours).
    mutating func change() -> PosixRule.Change? {
        let day: PosixRule.Change.Day
        if take("M") {
            guard let month = number(), (1...12).contains(month), take("."), let week = number(), (1...5).contains(week), take("."),
                let weekday = number(), (0...6).contains(weekday)
            else { return nil }
            day = .weekday(month: Int(month), week: Int(week), weekday: Int(weekday))
        } else if take("J") {
            guard let n = number(), (1...365).contains(n) else { return nil }
            day = .julian(Int(n))
        } else {
            guard let n = number(), (0...365).contains(n) else { return nil }
            day = .zeroBased(Int(n))
        }
        var time: Int64 = 7200
        if take("/") {
            var sign: Int64 = 1
            if take("-") { sign = -1 } else { _ = take("+") }
            guard let seconds = clock(maxHours: 167) else { return nil }
            time = sign * seconds
        }
        return PosixRule.Change(day: day, time: time)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    fileprivate func floorModulo(_ divisor: Int64) -> Int64 {
        self - floorDivided(by: divisor) * divisor
    }
}
