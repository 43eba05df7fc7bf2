// A pseudo-terminal pair for testing the serial transport without a serial port.
#ifndef SWIFT_ATT_PSEUDO_TERMINAL_H
#define SWIFT_ATT_PSEUDO_TERMINAL_H

/// Opens a pty master; writes the slave's path (NUL-terminated) into `path`.
/// Returns the master descriptor, or -1 with errno set.
int pseudo_terminal_open(char *path, unsigned long path_size);

/// Starts `path` with `argv` and `envp` in a new session whose controlling terminal is a
/// new pseudo-terminal of `rows` x `columns` (so Ctrl-C typed on it is SIGINT, as at a
/// real terminal). Fork and exec happen here, in C: a forked child of a Swift process
/// may run nothing but async-signal-safe calls before exec. Returns the master
/// descriptor and sets `*pid`, or -1 with errno set.
int pseudo_terminal_spawn(const char *path, char *const argv[], char *const envp[],
                          unsigned short rows, unsigned short columns, int *pid);

#endif
