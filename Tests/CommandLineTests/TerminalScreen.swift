/// What a terminal shows, from the bytes a program writes to it: the subset of VT100 /
/// ECMA-48 that libedit and swift-att use with `TERM=vt100` (printing, CR, LF, BS, TAB,
/// cursor movement, erase in line/display; attributes and modes are ignored). Enough to
/// assert on the screen a user sees — what is above the prompt, what the prompt line
/// holds — rather than on a byte stream full of redraws.
struct TerminalScreen {
    let rows: Int
    let columns: Int
    private(set) var lines: [[Character]]
    private(set) var row = 0
    private(set) var column = 0
    /// Rows scrolled off the top, oldest first.
    private(set) var scrolledOff: [String] = []
    private var escape: [Character]?
    private var pendingUTF8: [UInt8] = []

    init(rows: Int = 40, columns: Int = 120) {
        self.rows = rows
        self.columns = columns
        lines = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// Each row as text, trailing spaces removed.
    var text: [String] {
        lines.map { Self.trimmed($0) }
    }

    /// The rows that are not empty (the scrolled-off ones first): the session so far.
    var transcript: [String] {
        (scrolledOff + text).filter { !$0.isEmpty }
    }

    /// The row the cursor is on, up to the cursor or its last character (a prompt's
    /// trailing space kept): where the prompt and the line being typed are.
    var cursorLine: String {
        let drawn = Self.trimmed(lines[row]).count
        return String(lines[row][..<max(drawn, min(column, columns))])
    }

    private static func trimmed(_ row: [Character]) -> String {
        String(row[..<(row.lastIndex { $0 != " " }.map { $0 + 1 } ?? 0)])
    }

    mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            if !pendingUTF8.isEmpty || byte >= 0x80 {
                pendingUTF8.append(byte)
                let expected = pendingUTF8[0] >= 0xF0 ? 4 : pendingUTF8[0] >= 0xE0 ? 3 : 2
                if pendingUTF8.count >= expected {
                    let character = String(decoding: pendingUTF8, as: UTF8.self).first ?? "?"
                    pendingUTF8 = []
                    put(character)
                }
                continue
            }
            feed(Character(Unicode.Scalar(byte)))
        }
    }

    private mutating func feed(_ character: Character) {
        if var sequence = escape {
            sequence.append(character)
            escape = sequence
            if sequence.count == 1 {
                if character != "[" { escape = nil }  // ESC =, ESC >, ESC 7…: nothing drawn
                return
            }
            guard let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value) else { return }
            perform(final: character, parameters: String(sequence.dropFirst().dropLast()))
            escape = nil
            return
        }
        switch character {
        case "\u{1B}": escape = []
        case "\r": column = 0
        case "\n": lineFeed()
        case "\u{08}": column = max(0, column - 1)
        case "\t": column = min(columns - 1, (column / 8 + 1) * 8)
        case "\u{07}", "\0": break
        default: put(character)
        }
    }

    private mutating func put(_ character: Character) {
        if column >= columns {
            column = 0
            lineFeed()
        }
        lines[row][column] = character
        column += 1
    }

    private mutating func lineFeed() {
        if row == rows - 1 {
            scrolledOff.append(Self.trimmed(lines.removeFirst()))
            lines.append(Array(repeating: " ", count: columns))
        } else {
            row += 1
        }
    }

    private mutating func perform(final: Character, parameters: String) {
        if parameters.hasPrefix("?") { return }  // private modes
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let n = max(1, numbers.first.flatMap { $0 } ?? 1)
        let p0 = numbers.first.flatMap { $0 } ?? 0
        switch final {
        case "A": row = max(0, row - n)
        case "B": row = min(rows - 1, row + n)
        case "C": column = min(columns - 1, column + n)
        case "D": column = max(0, column - n)
        case "G": column = min(columns - 1, n - 1)
        case "H", "f":
            row = min(rows - 1, max(1, numbers.first.flatMap { $0 } ?? 1) - 1)
            column = min(columns - 1, max(1, numbers.dropFirst().first.flatMap { $0 } ?? 1) - 1)
        case "K":
            let range = p0 == 0 ? column..<columns : p0 == 1 ? 0..<min(columns, column + 1) : 0..<columns
            for c in range { lines[row][c] = " " }
        case "J":
            if p0 == 2 {
                lines = Array(repeating: Array(repeating: " ", count: columns), count: rows)
            } else {
                for c in column..<columns { lines[row][c] = " " }
                for r in (row + 1)..<rows { lines[r] = Array(repeating: " ", count: columns) }
            }
        case "P":
            lines[row].removeSubrange(column..<min(columns, column + n))
            lines[row] += Array(repeating: " ", count: columns - lines[row].count)
        case "@":
            lines[row].insert(contentsOf: Array(repeating: " ", count: n), at: column)
            lines[row].removeLast(n)
        default: break  // m (attributes), h/l (modes), r (scroll region)…
        }
    }
}
