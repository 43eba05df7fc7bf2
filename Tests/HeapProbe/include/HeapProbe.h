// Heap allocations made by the calling thread, for tests that assert a loop allocates
// nothing. malloc and friends are interposed in the test executable and forward to
// glibc's own entry points (__libc_malloc etc.); see HeapProbe.c for why per thread.
#ifndef SWIFT_ATT_HEAP_PROBE_H
#define SWIFT_ATT_HEAP_PROBE_H
#include <stddef.h>
#include <stdint.h>

/// Whether heap_probe_thread_allocations counts anything (glibc, and not built with
/// ASan or TSan, whose runtimes own the allocator).
int heap_probe_is_available(void);

/// Allocations (malloc, calloc, realloc, the memalign family) this thread has made so
/// far; 0 when unavailable.
uint64_t heap_probe_thread_allocations(void);

/// Blocks this thread has freed so far (free of a non-NULL pointer, realloc of one);
/// 0 when unavailable. Allocations minus frees over a stretch of code is what it kept.
uint64_t heap_probe_thread_frees(void);

/// Bytes malloc has handed out in the whole process, all threads and arenas (glibc's
/// mallinfo2: uordblks plus hblkhd), for a soak's "is memory flat" check; 0 when
/// unavailable.
size_t heap_probe_bytes_in_use(void);
#endif
