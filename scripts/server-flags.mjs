// V8 flags of a serving Rova process: `npm start` (package.json), deploy/rova@.service, the benches and the smoke
// and scale runs all start the server with these (test/ops/deploy.test.ts checks that they agree).
// --max-semi-space-size=32 (MB; Node 20's default is 16): a booking allocates ~100 KB of short-lived objects
// (request, quote, statement parameters, rows, answer); with the default young generation, scavenges under load
// promote many of them to the old generation, whose collections cost more. Measured with booking-throughput's CPU
// profile (BENCH_CPU_PROF=1) on the 2-core machine: garbage collection per booking 150 µs → 90 µs (6.7 % → 5.2 % of
// the samples), ~5 % of the server's CPU per booking. Costs up to ~64 MB more resident memory per process.
//
// --heap-growing-percent=50: after each full collection V8 lets the old generation grow to 1.5 × what survived, where
// its own heuristics allowed up to 4 × under a request burst (heap 264 MB for ~60 MB of live objects at the end of
// booking-throughput). It is a growth factor, not a limit: the heap still grows as far as the live objects need, so
// a burst is slower, never an out-of-memory exit. Paired runs on the 2-core machine (2026-11-27, with the malloc
// settings below): RSS 362 → 248 MB, heap 266 → 155 MB, throughput within the runs' noise (1,195 → 1,154 req/s).
// A hard --max-old-space-size=128 gave 260 MB at -20 % throughput; --optimize-for-size 204 MB at -40 %.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32', '--heap-growing-percent=50'];

// MALLOC_ARENA_MAX=2: glibc gives each thread that meets contention a malloc arena of its own (up to 8 per core) and
// rarely hands their memory back. V8's compiler and GC threads and libuv's pool allocate outside the JS heap, so a
// busy node grew ~15 arenas holding ~185 MB (smaps of the booking-throughput server: 315 MB anonymous, 137 MB of it
// the V8 heap). Two arenas (the machine's two cores) kept it at ~90 MB with no measurable loss of throughput.
//
// MALLOC_MMAP_THRESHOLD_=131072, MALLOC_TRIM_THRESHOLD_=131072: glibc raises its mmap threshold each time a large
// block is freed (up to 32 MB), after which large buffers (PostgreSQL statements with a batch of bookings, TLS and
// socket buffers) come from the arenas and stay there, fragmented, after they are freed. A fixed 128 KB threshold
// maps such blocks on their own and gives them back when freed, and trimming gives back a free arena top above
// 128 KB. Paired runs: RSS at the end of booking-throughput 443–467 → 362 MB at the same throughput.
// An operator's own value of each wins.
export const SERVER_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};
