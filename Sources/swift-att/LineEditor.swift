#if canImport(Glibc)
import Glibc
#endif
import CSwiftATTEdit
import Synchronization

/// The shell's terminal: line editing, history and completion by libedit, on a thread of
/// its own.
///
/// libedit is not thread-safe and its callback interface wants to be fed one key at a
/// time, so one thread owns it: it polls standard input and a wake-up pipe, hands each
/// key to libedit and each finished line to `deliver`. Everything else — results printed
/// by commands, notifications arriving while the user types, a new prompt when the link
/// comes or goes, a question while pairing — is queued here and done by that thread,
/// which clears the line being typed, prints, and redraws prompt and line below. That is
/// how output lands above the prompt without breaking what the user is typing.
final class LineEditor: Sendable {
    /// The editor in use: where `Output` sends what it prints, and where libedit's C
    /// callbacks (which carry no context) find their way back. One per process.
    static let active = Mutex<LineEditor?>(nil)

    private enum Request {
        case write(String)
        case prompt(String)
        case discardLine
        case ask(String)
        case answered
        case stop
    }

    private struct State {
        var requests: [Request] = []
        var prompt: String
        /// A question is on the prompt: the next line answers it, and stays out of history.
        var question: String?
        /// Standard input ended (Ctrl-D): no more keys are read.
        var inputEnded = false
        /// libedit has just handed over a line.
        var lineDone = false
        var stopped = false
    }

    private let state: Mutex<State>
    private let wake: (read: Int32, write: Int32)
    private let deliver: @Sendable (WatchedInput) -> Void
    private let history: ShellHistory
    private let complete: @Sendable (_ line: String, _ wordStart: Int) -> [String]

    /// Starts editing standard input, a terminal, with `prompt`; each line (and the end of
    /// input, Ctrl-D) goes to `deliver`. `nil` when the thread or pipe cannot be made.
    static func start(
        prompt: String, history: ShellHistory,
        complete: @escaping @Sendable (_ line: String, _ wordStart: Int) -> [String],
        deliver: @escaping @Sendable (WatchedInput) -> Void
    ) -> LineEditor? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let editor = LineEditor(prompt: prompt, wake: (fds[0], fds[1]), history: history, complete: complete, deliver: deliver)
        active.withLock { $0 = editor }
        guard InputWatcher.detach({ editor.run() }) else {
            active.withLock { $0 = nil }
            return nil
        }
        return editor
    }

    private init(
        prompt: String, wake: (read: Int32, write: Int32), history: ShellHistory,
        complete: @escaping @Sendable (String, Int) -> [String], deliver: @escaping @Sendable (WatchedInput) -> Void
    ) {
        state = Mutex(State(prompt: prompt))
        self.wake = wake
        self.history = history
        self.complete = complete
        self.deliver = deliver
    }

    /// Prints `text` above the prompt (the line being typed is redrawn below it).
    func write(_ text: String) { send(.write(text)) }

    /// The prompt from now on; shown at once, the line being typed kept.
    func setPrompt(_ prompt: String) { send(.prompt(prompt)) }

    /// Ctrl-C with nothing running: the line typed so far is dropped, as in a shell.
    func discardLine() { send(.discardLine) }

    /// Shows `question` as the prompt: the next line answers it and is not kept in history.
    func ask(_ question: String) { send(.ask(question)) }

    /// The question was answered (or given up): the prompt comes back.
    func answered() { send(.answered) }

    /// Prints what is queued, gives the terminal back as it was and ends the thread;
    /// returns once that is done (or after a second, should the thread be stuck).
    func stop() {
        send(.stop)
        for _ in 0..<1000 where !state.withLock({ $0.stopped }) { usleep(1000) }
        Self.active.withLock { if $0 === self { $0 = nil } }
    }

    private func send(_ request: Request) {
        let first = state.withLock { state in
            state.requests.append(request)
            return state.requests.count == 1
        }
        if first {
            var byte: UInt8 = 1
            _ = Glibc.write(wake.write, &byte, 1)
        }
    }

    // MARK: The editor's thread

    private func run() {
        swift_att_edit_configure("swift-att", Self.completion)
        rl_initialize()  // before the history: add_history on an uninitialised libedit crashes
        for line in history.load() { add_history(line) }
        install(state.withLock { $0.prompt })
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        var reading = true
        while true {
            fds[0].fd = reading ? STDIN_FILENO : -1
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[1].revents != 0, !serveRequests() { break }
            if reading, fds[0].revents != 0 {
                reading = readKey()
            }
        }
        rl_callback_handler_remove()  // the terminal back in its own mode
        flushStandardOutput()
        state.withLock { $0.stopped = true }
    }

    /// Does what other threads asked; false when asked to stop.
    private func serveRequests() -> Bool {
        var byte: UInt8 = 0
        while read(wake.read, &byte, 1) == 1 {}
        let requests = state.withLock { state in
            defer { state.requests.removeAll() }
            return state.requests
        }
        var redraw = false
        var text = ""
        for request in requests {
            switch request {
            case let .write(output):
                text += output
                redraw = true
            case let .prompt(prompt):
                let asking = state.withLock { state in
                    state.prompt = prompt
                    return state.question != nil
                }
                if !asking { rl_set_prompt(prompt) }
                redraw = true
            case .discardLine:
                // As a shell does: the line stays on screen with ^C after it.
                if !text.isEmpty {
                    emit(text)
                    rl_forced_update_display()
                    text = ""
                }
                flushStandardOutput()
                Output.writeAll("^C\r\n", to: STDOUT_FILENO)
                redraw = false
                reinstall()
            case let .ask(question):
                state.withLock { $0.question = question }
                rl_set_prompt(question)
                redraw = true
            case .answered:
                let prompt = state.withLock { state in
                    state.question = nil
                    return state.prompt
                }
                rl_set_prompt(prompt)
                redraw = true
            case .stop:
                if !text.isEmpty { emit(text) }
                // Leave the cursor on a line of its own for whatever the shell prints last.
                emit("\r\u{1B}[K")
                return false
            }
        }
        if redraw {
            emit(text)
            rl_forced_update_display()
        }
        return true
    }

    /// Clears the row the prompt is on, prints `text` there (it ends with a newline when
    /// it is output), leaving the cursor at the start of an empty row.
    private func emit(_ text: String) {
        flushStandardOutput()
        Output.writeAll("\r\u{1B}[K" + text, to: STDOUT_FILENO)
    }

    /// One key to libedit; false once standard input has ended.
    private func readKey() -> Bool {
        rl_callback_read_char()
        let (ended, lineDone) = state.withLock { state in
            defer { state.lineDone = false }
            return (state.inputEnded, state.lineDone)
        }
        // libedit keeps a finished line in its buffer until the next key, and would
        // redraw it under the next prompt: a fresh line now.
        if lineDone, !ended { reinstall() }
        return !ended
    }

    private func install(_ prompt: String) {
        rl_callback_handler_install(prompt, Self.lineHandler)
    }

    /// A fresh, empty line under the current prompt.
    private func reinstall() {
        rl_callback_handler_remove()
        emit("")
        install(state.withLock { $0.question ?? $0.prompt })
    }

    /// libedit's call with a finished line (`nil`: Ctrl-D on an empty line, or the end
    /// of input).
    private func received(_ line: String?) {
        guard let line else {
            emit("")
            state.withLock { $0.inputEnded = true }
            deliver(.endOfInput)
            return
        }
        let answering = state.withLock { state in
            state.lineDone = true
            return state.question != nil
        }
        let entry = String(line.trimmingWhitespace)
        if !answering, !entry.isEmpty {
            add_history(entry)
            history.append(entry)
        }
        deliver(.line(line))
    }

    private func flushStandardOutput() { fflush(nil) }

    private static let lineHandler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { raw in
        let line = raw.map { String(cString: $0) }
        free(raw)
        active.withLock { $0 }?.received(line)
    }

    /// libedit's completion callback: the matches for the word that starts at `start`,
    /// in the form libedit's own `completion_matches` makes: the common prefix first, then
    /// each match, then NULL — a lone match too (`[m, m, NULL]`). libedit reads the third
    /// entry before the second to tell a lone match (completed with a space after it)
    /// from several: GNU readline's `[m, NULL]` had it read past the array, and whatever
    /// lay there decided (under ThreadSanitizer's allocator, no space, and a beep).
    private static let completion: @convention(c) (UnsafePointer<CChar>?, Int32, Int32)
        -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = { _, start, _ in
        swift_att_edit_completion_over()
        guard let editor = active.withLock({ $0 }), let buffer = swift_att_edit_line() else { return nil }
        let line = String(cString: buffer)
        let matches = editor.complete(line, Int(start))
        guard !matches.isEmpty else { return nil }
        let entries = [ShellCompletion.commonPrefix(matches)] + matches
        // libedit frees the array with free(3): it comes from malloc.
        let size = MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (entries.count + 1)
        guard let raw = malloc(size) else { return nil }
        let array = raw.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: entries.count + 1)
        for (index, entry) in entries.enumerated() { array[index] = strdup(entry) }
        array[entries.count] = nil
        return array
    }
}
