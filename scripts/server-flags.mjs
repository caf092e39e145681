// V8 flags of a serving Rova process: `npm start` (package.json), deploy/rova@.service, the benches and the smoke
// and scale runs all start the server with these (test/ops/deploy.test.ts checks that they agree).
// --max-semi-space-size=32 (MB; Node 20's default is 16): a booking allocates ~100 KB of short-lived objects
// (request, quote, statement parameters, rows, answer); with the default young generation, scavenges under load
// promote many of them to the old generation, whose collections then cost more than the request. Measured with
// booking-throughput on the 2-core machine: ~15 % less CPU per booking (README "Performance"). Costs up to ~64 MB
// more resident memory per process under load.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];
