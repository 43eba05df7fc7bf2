// Counts the heap allocations each thread makes, by interposing the C allocator in the
// test executable. A count per thread is what a zero-allocation test needs: Swift
// Testing runs other tests on other threads at the same time, and a process-wide
// figure (glibc's mallinfo2) mixes their allocations into the one being measured.
// glibc exports its real allocator under __libc_* names, which avoids dlsym (itself an
// allocator user). The ATT benchmark's allocs/op column counts with it too.
#include "HeapProbe.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
// A sanitizer's runtime owns malloc: a second definition here would fight it.
#define HEAP_PROBE_SANITIZED 1
#endif
#endif

#if defined(__GLIBC__) && !defined(HEAP_PROBE_SANITIZED)
#include <errno.h>
#include <malloc.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static __thread uint64_t thread_allocations;
static __thread uint64_t thread_frees;

int heap_probe_is_available(void) { return 1; }
uint64_t heap_probe_thread_allocations(void) { return thread_allocations; }
uint64_t heap_probe_thread_frees(void) { return thread_frees; }
size_t heap_probe_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

void *malloc(size_t n) { thread_allocations++; return __libc_malloc(n); }
void *calloc(size_t c, size_t n) { thread_allocations++; return __libc_calloc(c, n); }
// A realloc both allocates and frees (a fresh block when p is NULL: no free).
void *realloc(void *p, size_t n) {
    thread_allocations++;
    if (p) thread_frees++;
    return __libc_realloc(p, n);
}
void free(void *p) {
    if (p) thread_frees++;
    __libc_free(p);
}
void *memalign(size_t a, size_t n) { thread_allocations++; return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { thread_allocations++; return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    thread_allocations++;
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
#else
int heap_probe_is_available(void) { return 0; }
uint64_t heap_probe_thread_allocations(void) { return 0; }
uint64_t heap_probe_thread_frees(void) { return 0; }
size_t heap_probe_bytes_in_use(void) { return 0; }
#endif
