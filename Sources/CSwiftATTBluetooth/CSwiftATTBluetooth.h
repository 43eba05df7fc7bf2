// BlueZ's libbluetooth headers (Debian: libbluetooth-dev): the HCI socket address,
// channels, device-info structures and ioctl numbers the hci0 transport uses.
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

// ioctl numbers are function-like macros, which Swift cannot import.
static const unsigned long CBLUETOOTH_HCIDEVUP = HCIDEVUP;
static const unsigned long CBLUETOOTH_HCIDEVDOWN = HCIDEVDOWN;
static const unsigned long CBLUETOOTH_HCIGETDEVLIST = HCIGETDEVLIST;
static const unsigned long CBLUETOOTH_HCIGETDEVINFO = HCIGETDEVINFO;

// ioctl is variadic, which Swift cannot call: one fixed-signature wrapper per use.
static inline int cbluetooth_ioctl_int(int fd, unsigned long request, long argument) {
    return ioctl(fd, request, argument);
}

// recvmmsg(2): several HCI packets in one system call. glibc declares it, and struct
// mmsghdr, only under _GNU_SOURCE, which Swift's Glibc module does not set; this is the
// kernel's own layout, and the call goes through syscall(2).
#include <sys/syscall.h>
#include <unistd.h>
struct cbluetooth_mmsghdr {
    struct msghdr msg_hdr;
    unsigned int msg_len;
};

static inline int cbluetooth_recvmmsg(int fd, struct cbluetooth_mmsghdr *messages, unsigned int count, int flags) {
    return (int)syscall(SYS_recvmmsg, fd, messages, count, flags, (void *)0);
}

