/* Preloaded into programs instructions.py runs under valgrind.
 *
 * valgrind 3.19 (Debian bookworm's) takes its own kill signal out of the mask passed to
 * rt_sigsuspend by writing into the caller's mask in place. libdispatch parks the main
 * thread of every Swift program with an async main in sigsuspend with a mask that is a
 * constant in read-only memory, so valgrind faults on that write and aborts ("VALGRIND
 * INTERNAL ERROR ... signal 11"). This sigsuspend hands the system call a copy, which
 * valgrind may change; the thread waits for the same signals as it would have. */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy;
    memcpy(&copy, mask, sizeof copy);
    return (int)syscall(SYS_rt_sigsuspend, &copy, (size_t)(_NSIG / 8));
}
