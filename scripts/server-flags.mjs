// V8 flags of a serving Rova process: `npm start` (package.json), deploy/rova@.service, the benches and the smoke
// and scale runs all start the server with these (test/ops/deploy.test.ts checks that they agree).
// --max-semi-space-size=16 (MB; V8's young generation, two semi-spaces): fixed, so every Node version runs the same.
// 32 collected less per booking (garbage collection 150 → 90 µs of a booking's CPU) but a busy node keeps both
// semi-spaces full, 64 MB of resident memory: paired runs of booking-throughput on the 2-core machine (2026-11-27,
// with the flag and settings below) ended at 186 MB with 16 and 242–243 MB with 24 or 32, with 865 against 779–790 µs
// of server CPU per booking (-6 % req/s); search the same at 185 against 222–247 MB. A node in 256 MB needs the room.
//
// --heap-growing-percent=50: after each full collection V8 lets the old generation grow to 1.5 × what survived, where
// its own heuristics allowed up to 4 × under a request burst (heap 264 MB for ~60 MB of live objects at the end of
// booking-throughput). It is a growth factor, not a limit: the heap still grows as far as the live objects need, so
// a burst is slower, never an out-of-memory exit. Paired runs on the 2-core machine (2026-11-27, with the malloc
// settings below): RSS 362 → 248 MB, heap 266 → 155 MB, throughput within the runs' noise (1,195 → 1,154 req/s).
// A hard --max-old-space-size=128 gave 260 MB at -20 % throughput; --optimize-for-size 204 MB at -40 %.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=50'];

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
