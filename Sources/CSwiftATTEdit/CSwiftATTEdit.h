// libedit (Debian's libedit-dev), the BSD line editor, through its readline-compatible
// callback interface: the shell's line editing, history and completion.
//
// libedit's state lives in C globals (rl_line_buffer, rl_point, ...). Swift 6 refuses
// to touch imported mutable globals from concurrent code, so the few the shell needs are
// reached through these functions instead; all of them are called on the line editor's
// own thread only.
#ifndef SWIFT_ATT_EDIT_H
#define SWIFT_ATT_EDIT_H

#include <stdio.h>
#include <editline/readline.h>

/// Settings made once, before the first handler is installed: no signal handlers of
/// libedit's own (the command owns SIGINT/SIGTERM), the name for ~/.editrc, and the
/// completion function.
static inline void swift_att_edit_configure(const char *name, rl_completion_func_t *complete) {
    rl_catch_signals = 0;
    rl_readline_name = name;
    rl_attempted_completion_function = complete;
}

/// Inside a completion function: no fallback to file names when it offers nothing.
static inline void swift_att_edit_completion_over(void) {
    rl_attempted_completion_over = 1;
}

/// The line typed so far (NULL before the first handler is installed).
static inline const char *swift_att_edit_line(void) {
    return rl_line_buffer;
}

/// The cursor's offset in the line typed so far.
static inline int swift_att_edit_point(void) {
    return rl_point;
}

#endif
