// Interposes the C allocator to count allocations per thread. glibc exports its real
// implementation under __libc_* names, which avoids dlsym (itself an allocator user).
#include "BenchmarkSupport.h"
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static __thread uint64_t thread_allocations;

uint64_t allocation_counter_thread_count(void) { return thread_allocations; }

void *malloc(size_t n) { thread_allocations++; return __libc_malloc(n); }
void *calloc(size_t c, size_t n) { thread_allocations++; return __libc_calloc(c, n); }
void *realloc(void *p, size_t n) { thread_allocations++; return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { thread_allocations++; return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { thread_allocations++; return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    thread_allocations++;
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
