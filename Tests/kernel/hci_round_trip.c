/*
 * The C baseline for `swift-att info --round-trips N`: N HCI Read BD_ADDR commands one
 * after another, each timed from write to its Command Complete, over the same
 * transports — the HCI user channel of an adapter (`hci0`) or H4 over TCP
 * (`tcp:HOST:PORT`). What a program that does nothing but the round trip costs: one
 * write, one poll, one read per command. The kernel bench prints both side by side;
 * Benchmarks/syscalls.py counts both programs' system calls.
 *
 *   hci_round_trip hci0 200
 *   hci_round_trip tcp:127.0.0.1:9101 200
 *
 * Prints "C round trip: median M ms, min A ms, max B ms over N Read BD_ADDR".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* From the kernel's include/net/bluetooth/hci_sock.h, so that no header package is needed. */
#define BTPROTO_HCI 1
#define HCI_CHANNEL_USER 1
#define HCIDEVDOWN _IOW('H', 202, int)
struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev; unsigned short hci_channel; };

static int fail(const char *what) {
    fprintf(stderr, "hci_round_trip: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* The adapter, down (the user channel needs it down), bound to the user channel. The
 * kernel may still be setting a new adapter up: bind says EBUSY meanwhile, so retry. */
static int open_adapter(const char *name) {
    int index = atoi(name + 3);
    int fd = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
    if (fd < 0) fail("socket(AF_BLUETOOTH)");
    struct sockaddr_hci address = { AF_BLUETOOTH, (unsigned short)index, HCI_CHANNEL_USER };
    for (int attempt = 0; ; attempt++) {
        ioctl(fd, HCIDEVDOWN, index);
        if (bind(fd, (struct sockaddr *)&address, sizeof address) == 0) return fd;
        if ((errno != EBUSY && errno != EALREADY) || attempt == 100) fail("bind(HCI_CHANNEL_USER)");
        usleep(100000);
    }
}

/* A numeric IPv4 address: the bench's controllers listen on 127.0.0.1. */
static int open_tcp(const char *spec) {
    char host[64];
    const char *colon = strrchr(spec, ':');
    if (!colon || colon - spec >= (long)sizeof host) { errno = EINVAL; fail(spec); }
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = 0;
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1)) };
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) { errno = EINVAL; fail(spec); }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) fail(spec);
    return fd;
}

/* Reads until the Command Complete of Read BD_ADDR (opcode 0x1009) has arrived whole.
 * On a packet socket each read is one packet; on TCP the bytes come framed by H4, and
 * one read almost always holds the whole event. */
static void await_complete(int fd, int stream) {
    static unsigned char buffer[4096];
    static size_t held;
    for (;;) {
        size_t used = 0;
        while (held - used >= 3) {
            unsigned char *p = buffer + used;
            size_t length;
            if (p[0] == 0x04) length = 3 + (size_t)p[2];
            else if (p[0] == 0x02 && held - used >= 5) length = 5 + (size_t)(p[3] | p[4] << 8);
            else if (p[0] == 0x02) break;
            else { fprintf(stderr, "hci_round_trip: unexpected packet type %02x\n", p[0]); exit(1); }
            if (held - used < length) break;
            int done = p[0] == 0x04 && p[1] == 0x0E && length >= 6 && p[4] == 0x09 && p[5] == 0x10;
            used += length;
            if (!stream) used = held; /* one packet per read */
            if (done) {
                memmove(buffer, buffer + used, held - used);
                held -= used;
                return;
            }
        }
        memmove(buffer, buffer + used, held - used);
        held -= used;
        struct pollfd waiting = { fd, POLLIN, 0 };
        if (poll(&waiting, 1, 5000) != 1) { errno = ETIMEDOUT; fail("waiting for Command Complete"); }
        ssize_t n = read(fd, buffer + held, sizeof buffer - held);
        if (n <= 0) fail("read");
        held += (size_t)n;
    }
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 3 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: hci_round_trip hciN|tcp:HOST:PORT COUNT\n");
        return 2;
    }
    int stream = strncmp(argv[1], "tcp:", 4) == 0;
    int fd = stream ? open_tcp(argv[1] + 4) : open_adapter(argv[1]);
    int count = atoi(argv[2]);
    double *samples = malloc(sizeof(double) * (size_t)count);
    static const unsigned char command[] = { 0x01, 0x09, 0x10, 0x00 };
    for (int i = 0; i < count; i++) {
        double started = now_ms();
        if (write(fd, command, sizeof command) != (ssize_t)sizeof command) fail("write");
        await_complete(fd, stream);
        samples[i] = now_ms() - started;
    }
    qsort(samples, (size_t)count, sizeof(double), by_value);
    printf("C round trip: median %.2f ms, min %.2f ms, max %.2f ms over %d Read BD_ADDR\n",
           samples[count / 2], samples[0], samples[count - 1], count);
    close(fd);
    return 0;
}
