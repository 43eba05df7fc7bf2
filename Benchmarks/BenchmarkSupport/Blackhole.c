#include "BenchmarkSupport.h"

void benchmark_blackhole(const void *p) { (void)p; }
