// Example ROVA_EXTENSIONS file: behind a CDN every visitor may share a few addresses, so raise the
// /convert limit (or return { limit: 0, window: 60 } to switch it off).
//   ROVA_EXTENSIONS=./examples/extension-raise-convert-limit.mjs npm start
export default function register(platform) {
  platform.filters.add('rova_fx_convert_rate_limit', (current) => ({ ...current, limit: current.limit * 10 }));
}
