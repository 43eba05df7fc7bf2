#include "HeapProbe.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
// A sanitizer's allocator replaces glibc's: mallinfo2 no longer sees the heap.
#define HEAP_PROBE_SANITIZED 1
#endif
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)) && !defined(HEAP_PROBE_SANITIZED)
#include <malloc.h>

int heap_probe_is_available(void) { return 1; }

size_t heap_probe_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
int heap_probe_is_available(void) { return 0; }
size_t heap_probe_bytes_in_use(void) { return 0; }
#endif
