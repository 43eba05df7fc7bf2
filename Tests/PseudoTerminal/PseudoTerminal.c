#define _GNU_SOURCE
#include "PseudoTerminal.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <unistd.h>

int pseudo_terminal_open(char *path, unsigned long path_size) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, path, path_size) != 0) {
        close(master);
        return -1;
    }
    return master;
}

int pseudo_terminal_spawn(const char *path, char *const argv[], char *const envp[],
                          unsigned short rows, unsigned short columns, int *pid) {
    struct winsize size = { .ws_row = rows, .ws_col = columns };
    int master = -1;
    pid_t child = forkpty(&master, NULL, NULL, &size);
    if (child < 0) return -1;
    if (child == 0) {
        execve(path, argv, envp);
        _exit(127);
    }
    int flags = fcntl(master, F_GETFD);
    if (flags >= 0) fcntl(master, F_SETFD, flags | FD_CLOEXEC);
    *pid = child;
    return master;
}
