// Heap bytes in use, from glibc's mallinfo2(), for tests that assert a loop allocates
// nothing. Swift's Glibc module does not import <malloc.h>, hence this shim.
#ifndef SWIFT_ATT_HEAP_PROBE_H
#define SWIFT_ATT_HEAP_PROBE_H
#include <stddef.h>

/// Whether heap_probe_bytes_in_use measures anything (glibc 2.33 or later, and not
/// built with ASan or TSan, whose allocators glibc's statistics do not see).
int heap_probe_is_available(void);

/// Bytes currently allocated by malloc in this process, all threads and arenas
/// (mallinfo2's uordblks plus hblkhd); 0 when unavailable.
size_t heap_probe_bytes_in_use(void);
#endif
