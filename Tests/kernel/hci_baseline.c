/*
 * C baselines for swift-att on the same transports — the HCI user channel of an adapter
 * (`hci0`) or H4 over TCP (`tcp:HOST:PORT`) — doing nothing but the one thing measured:
 *
 *   hci_baseline round-trip hci0 200
 *       N Read BD_ADDR commands one after another, each timed from write to its Command
 *       Complete: what `swift-att info --round-trips N` measures, at one write, one poll
 *       and one read per command. Prints "C round trip: median M ms, min A ms, max B ms
 *       over N Read BD_ADDR". The kernel bench prints both side by side;
 *       Benchmarks/syscalls.py counts both programs' system calls.
 *
 *   hci_baseline pump hci0|tcp:HOST:PORT COUNT [VALUE_LENGTH]
 *       A raw ACL pump: advertises (connectable, from the static random address
 *       C0:5A:17:00:0F:01), takes the first connection, then sends COUNT Handle Value
 *       Notifications of VALUE_LENGTH (20) octets as bare ACL packets on the ATT channel
 *       as fast as the controller's buffer credits allow (Number Of Completed Packets),
 *       then disconnects. No host stack: the ceiling of the path for a host sending the
 *       same notifications (`swift-att peripheral transfer`). Prints "PUMP advertising
 *       ADDRESS" once advertising, and "PUMP sent N packets in S s" at the end; the
 *       receiver times them.
 *
 *   Two knobs give the round trip swift-att's shape, one at a time, to find where
 *   swift-att's extra system time per round trip comes from (`Tests/kernel/run.sh --only
 *   round_trip_shape`): HCI_BASELINE_WAKE_PIPE=1 polls an idle pipe beside the adapter,
 *   as swift-att's loop polls its wake-up pipe; HCI_BASELINE_THREADS=N starts N threads
 *   that sleep in pause(2), as a Swift process has its main thread and runtime threads
 *   besides the loop (a process's threads share its descriptor table, which makes the
 *   kernel count references on every descriptor a system call uses).
 *   HCI_BASELINE_TOUCH_PAGES=N touches N pages of memory (one store each) when the write
 *   returns and again when the answer has been read, as swift-att's loop and task touch
 *   their code, stacks and heap around each: under TCG the guest's TLB is emulated and
 *   refilled in software after every context switch, so what a round trip costs may grow
 *   with the pages it touches more than with its instructions.
 *
 *   hci_baseline clock COUNT
 *       What one clock read costs here: COUNT reads of CLOCK_BOOTTIME (Swift's
 *       ContinuousClock) and of CLOCK_MONOTONIC, each timed as a whole. Under TCG a read
 *       may leave the vDSO for an emulated clock device, which makes every clock read of
 *       a host's turn count. Prints "CLOCK boottime N ns monotonic M ns per read".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
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
    fprintf(stderr, "hci_baseline: %s: %s\n", what, strerror(errno));
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
/* HCI_BASELINE_WAKE_PIPE: the read end of a pipe nobody writes, polled beside the adapter. */
static int wake_pipe = -1;

static void *sleeper(void *unused) {
    (void)unused;
    for (;;) pause();
    return NULL;
}

static unsigned char *touched_pages;
static int touched_page_count;

/* One store in each of the knob's pages (volatile: the compiler keeps every one). */
static void touch_pages(void) {
    for (int i = 0; i < touched_page_count; i++) {
        ((volatile unsigned char *)touched_pages)[(size_t)i * 4096] += 1;
    }
}

/* The knobs of the header comment, read once before the round trips. */
static void take_swift_shape(void) {
    const char *pages_knob = getenv("HCI_BASELINE_TOUCH_PAGES");
    touched_page_count = pages_knob ? atoi(pages_knob) : 0;
    if (touched_page_count > 0) {
        touched_pages = aligned_alloc(4096, (size_t)touched_page_count * 4096);
        if (!touched_pages) fail("aligned_alloc");
        memset(touched_pages, 0, (size_t)touched_page_count * 4096);
    }
    const char *pipe_knob = getenv("HCI_BASELINE_WAKE_PIPE");
    if (pipe_knob && strcmp(pipe_knob, "1") == 0) {
        int ends[2];
        if (pipe(ends) != 0) fail("pipe");
        wake_pipe = ends[0];
    }
    const char *threads_knob = getenv("HCI_BASELINE_THREADS");
    for (int i = threads_knob ? atoi(threads_knob) : 0; i > 0; i--) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, sleeper, NULL) != 0) fail("pthread_create");
    }
}

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
            else { fprintf(stderr, "hci_baseline: unexpected packet type %02x\n", p[0]); exit(1); }
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
        struct pollfd waiting[2] = { { fd, POLLIN, 0 }, { wake_pipe, POLLIN, 0 } };
        if (poll(waiting, wake_pipe >= 0 ? 2 : 1, 5000) < 1 || !(waiting[0].revents & POLLIN)) {
            errno = ETIMEDOUT;
            fail("waiting for Command Complete");
        }
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

static int round_trip(int fd, int stream, int count) {
    take_swift_shape();
    double *samples = malloc(sizeof(double) * (size_t)count);
    static const unsigned char command[] = { 0x01, 0x09, 0x10, 0x00 };
    for (int i = 0; i < count; i++) {
        double started = now_ms();
        if (write(fd, command, sizeof command) != (ssize_t)sizeof command) fail("write");
        touch_pages();
        await_complete(fd, stream);
        touch_pages();
        samples[i] = now_ms() - started;
    }
    qsort(samples, (size_t)count, sizeof(double), by_value);
    printf("C round trip: median %.2f ms, min %.2f ms, max %.2f ms over %d Read BD_ADDR\n",
           samples[count / 2], samples[0], samples[count - 1], count);
    return 0;
}

/* One HCI packet (H4 indicator first) into `packet`, waiting up to `timeout_ms`; 0 when
 * none came. A packet socket hands over one per read; a TCP stream is framed here. */
static int stream_transport;
static ssize_t next_packet(int fd, unsigned char *packet, size_t size, int timeout_ms) {
    static unsigned char buffer[8192];
    static size_t held;
    for (;;) {
        if (stream_transport && held >= 3) {
            size_t length = 0;
            if (buffer[0] == 0x04) length = 3 + (size_t)buffer[2];
            else if (buffer[0] == 0x02 && held >= 5) length = 5 + (size_t)(buffer[3] | buffer[4] << 8);
            else if (buffer[0] != 0x02) { fprintf(stderr, "hci_baseline: unexpected packet type %02x\n", buffer[0]); exit(1); }
            if (length && held >= length && length <= size) {
                memcpy(packet, buffer, length);
                memmove(buffer, buffer + length, held - length);
                held -= length;
                return (ssize_t)length;
            }
        }
        struct pollfd waiting = { fd, POLLIN, 0 };
        if (poll(&waiting, 1, timeout_ms) != 1) return 0;
        if (!stream_transport) {
            ssize_t n = read(fd, packet, size);
            if (n <= 0) fail("read");
            return n;
        }
        ssize_t n = read(fd, buffer + held, sizeof buffer - held);
        if (n <= 0) fail("read");
        held += (size_t)n;
    }
}

/* Sends a command and waits for its Command Complete; returns its return parameters'
 * length, copied into `reply` (status first). Other events meanwhile are dropped. */
static size_t command(int fd, uint16_t opcode, const unsigned char *parameters, size_t length, unsigned char *reply) {
    unsigned char packet[260] = { 0x01, (unsigned char)opcode, (unsigned char)(opcode >> 8), (unsigned char)length };
    memcpy(packet + 4, parameters, length);
    if (write(fd, packet, 4 + length) != (ssize_t)(4 + length)) fail("write command");
    unsigned char event[1100];
    for (;;) {
        ssize_t n = next_packet(fd, event, sizeof event, 5000);
        if (n == 0) { errno = ETIMEDOUT; fail("waiting for a Command Complete"); }
        if (n >= 7 && event[0] == 0x04 && event[1] == 0x0E && (event[4] | event[5] << 8) == opcode) {
            size_t returned = (size_t)n - 6;
            if (reply) memcpy(reply, event + 6, returned);
            if (event[6] != 0) { fprintf(stderr, "hci_baseline: command 0x%04x failed with status 0x%02x\n", opcode, event[6]); exit(1); }
            return returned;
        }
    }
}

static int pump(int fd, int count, int value_length) {
    unsigned char reply[64];
    /* C0:5A:17:00:0F:01, least significant octet first. */
    static const unsigned char address[6] = { 0x01, 0x0F, 0x00, 0x17, 0x5A, 0xC0 };
    command(fd, 0x0C03, NULL, 0, NULL);                          /* Reset */
    command(fd, 0x2005, address, 6, NULL);                       /* LE Set Random Address */
    command(fd, 0x2002, NULL, 0, reply);                         /* LE Read Buffer Size */
    int buffer_length = reply[1] | reply[2] << 8, credits = reply[3];
    if (buffer_length < 7 + value_length) { fprintf(stderr, "hci_baseline: LE ACL buffers of %d octets: a notification needs one of %d\n", buffer_length, 7 + value_length); exit(1); }
    static const unsigned char advertising_parameters[15] = { 0x20, 0x00, 0x20, 0x00, 0x00, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0x07, 0x00 };
    command(fd, 0x2006, advertising_parameters, sizeof advertising_parameters, NULL);
    unsigned char advertising_data[32] = { 3, 0x02, 0x01, 0x06 };
    command(fd, 0x2008, advertising_data, sizeof advertising_data, NULL);
    static const unsigned char enable = 1;
    command(fd, 0x200A, &enable, 1, NULL);
    printf("PUMP advertising C0:5A:17:00:0F:01\n");
    fflush(stdout);

    unsigned char event[1100];
    int handle = -1;
    while (handle < 0) {
        ssize_t n = next_packet(fd, event, sizeof event, 60000);
        if (n == 0) { errno = ETIMEDOUT; fail("waiting for a connection"); }
        /* LE Meta: Connection Complete (0x01) or Enhanced Connection Complete (0x0A), status 0. */
        if (n >= 7 && event[0] == 0x04 && event[1] == 0x3E && (event[3] == 0x01 || event[3] == 0x0A) && event[4] == 0)
            handle = event[5] | (event[6] & 0x0F) << 8;
    }
    /* One notification per ACL packet, as the host lays it out: ACL header, L2CAP header
     * (length, CID 0x0004), ATT Handle Value Notification for handle 0x0003. */
    unsigned char packet[300];
    size_t l2cap = 3 + (size_t)value_length;
    size_t size = 5 + 4 + l2cap;
    packet[0] = 0x02;
    packet[1] = (unsigned char)handle;
    packet[2] = (unsigned char)(handle >> 8);  /* packet boundary 00: first, not flushable */
    packet[3] = (unsigned char)(4 + l2cap);
    packet[4] = (unsigned char)((4 + l2cap) >> 8);
    packet[5] = (unsigned char)l2cap;
    packet[6] = (unsigned char)(l2cap >> 8);
    packet[7] = 0x04;
    packet[8] = 0x00;
    packet[9] = 0x1B;
    packet[10] = 0x03;
    packet[11] = 0x00;
    memset(packet + 12, 0xA5, (size_t)value_length);
    double started = now_ms();
    int sent = 0;
    while (sent < count) {
        while (credits > 0 && sent < count) {
            if (write(fd, packet, size) != (ssize_t)size) fail("write ACL");
            credits--;
            sent++;
        }
        ssize_t n = next_packet(fd, event, sizeof event, 10000);
        if (n == 0) { fprintf(stderr, "hci_baseline: no credits back after %d packets\n", sent); exit(1); }
        if (n >= 4 && event[0] == 0x04 && event[1] == 0x13)   /* Number Of Completed Packets */
            for (int i = 0; i < event[3] && 4 + 4 * i + 3 < n; i++) credits += event[4 + 4 * i + 2] | event[4 + 4 * i + 3] << 8;
        if (n >= 3 && event[0] == 0x04 && event[1] == 0x05) { fprintf(stderr, "hci_baseline: disconnected after %d packets\n", sent); exit(1); }
    }
    printf("PUMP sent %d packets in %.3f s\n", sent, (now_ms() - started) / 1e3);
    fflush(stdout);
    /* Let the last packets drain before the link goes. */
    for (double until = now_ms() + 2000; now_ms() < until;) next_packet(fd, event, sizeof event, 100);
    unsigned char disconnect[3] = { (unsigned char)handle, (unsigned char)(handle >> 8), 0x13 };
    unsigned char packet_out[7] = { 0x01, 0x06, 0x04, 3, disconnect[0], disconnect[1], disconnect[2] };
    if (write(fd, packet_out, sizeof packet_out) != (ssize_t)sizeof packet_out) fail("write Disconnect");
    return 0;
}

static double per_read_ns(clockid_t clock, int count) {
    struct timespec t0, t1, scratch;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < count; i++) clock_gettime(clock, &scratch);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / count;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "clock") == 0 && atoi(argv[2]) >= 1) {
        int count = atoi(argv[2]);
        double boottime = per_read_ns(CLOCK_BOOTTIME, count), monotonic = per_read_ns(CLOCK_MONOTONIC, count);
        printf("CLOCK boottime %.0f ns monotonic %.0f ns per read\n", boottime, monotonic);
        return 0;
    }
    int is_round_trip = argc == 4 && strcmp(argv[1], "round-trip") == 0 && atoi(argv[3]) >= 1;
    int is_pump = (argc == 4 || argc == 5) && strcmp(argv[1], "pump") == 0 && atoi(argv[3]) >= 1;
    if (!is_round_trip && !is_pump) {
        fprintf(stderr, "usage: hci_baseline round-trip hciN|tcp:HOST:PORT COUNT\n"
                        "       hci_baseline pump hciN|tcp:HOST:PORT COUNT [VALUE_LENGTH]\n"
                        "       hci_baseline clock COUNT\n");
        return 2;
    }
    int stream = strncmp(argv[2], "tcp:", 4) == 0;
    int fd = stream ? open_tcp(argv[2] + 4) : open_adapter(argv[2]);
    stream_transport = stream;
    int status = is_pump ? pump(fd, atoi(argv[3]), argc == 5 ? atoi(argv[4]) : 20) : round_trip(fd, stream, atoi(argv[3]));
    close(fd);
    return status;
}
