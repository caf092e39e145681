// V8 flags of a serving Rova process: `npm start` (package.json), deploy/rova@.service, the benches and the smoke
// and scale runs all start the server with these (test/ops/deploy.test.ts checks that they agree).
// --max-semi-space-size=32 (MB; Node 20's default is 16): a booking allocates ~100 KB of short-lived objects
// (request, quote, statement parameters, rows, answer); with the default young generation, scavenges under load
// promote many of them to the old generation, whose collections cost more. Measured with booking-throughput's CPU
// profile (BENCH_CPU_PROF=1) on the 2-core machine: garbage collection per booking 150 µs → 90 µs (6.7 % → 5.2 % of
// the samples), ~5 % of the server's CPU per booking. Costs up to ~64 MB more resident memory per process.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];

// MALLOC_ARENA_MAX=2: glibc gives each thread that meets contention a malloc arena of its own (up to 8 per core) and
// rarely hands their memory back. V8's compiler and GC threads and libuv's pool allocate outside the JS heap, so a
// busy node grew ~15 arenas holding ~185 MB (smaps of the booking-throughput server: 315 MB anonymous, 137 MB of it
// the V8 heap). Two arenas (the machine's two cores) kept it at ~90 MB with no measurable loss of throughput.
// An operator's own MALLOC_ARENA_MAX wins.
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };
