// A pseudo-terminal pair for testing the serial transport without a serial port.
#ifndef SWIFT_ATT_PSEUDO_TERMINAL_H
#define SWIFT_ATT_PSEUDO_TERMINAL_H

/// Opens a pty master; writes the slave's path (NUL-terminated) into `path`.
/// Returns the master descriptor, or -1 with errno set.
int pseudo_terminal_open(char *path, unsigned long path_size);

#endif
