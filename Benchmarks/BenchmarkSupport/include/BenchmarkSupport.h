// Counts heap allocations made by the calling thread, so a benchmark can report
// allocations per operation. malloc and friends are interposed in the executable and
// forward to glibc's own entry points (__libc_malloc etc.).
#ifndef SWIFT_ATT_BENCHMARK_SUPPORT_H
#define SWIFT_ATT_BENCHMARK_SUPPORT_H
#include <stdint.h>

/// Allocations (malloc, calloc, realloc, memalign family) made by this thread so far.
uint64_t allocation_counter_thread_count(void);



// An opaque sink: the optimiser cannot see through a call into another C file, so
// whatever a benchmark passes here must really have been computed.
void benchmark_blackhole(const void *p);
#endif
