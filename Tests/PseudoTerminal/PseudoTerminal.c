#define _GNU_SOURCE
#include "PseudoTerminal.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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
