// What benchmarks need from C. (Allocations per operation come from Tests/HeapProbe,
// the interposed malloc the zero-allocation tests use.)
#ifndef SWIFT_ATT_BENCHMARK_SUPPORT_H
#define SWIFT_ATT_BENCHMARK_SUPPORT_H

// An opaque sink: the optimiser cannot see through a call into another C file, so
// whatever a benchmark passes here must really have been computed.
void benchmark_blackhole(const void *p);
#endif
