#include "HeapProbe.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
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
