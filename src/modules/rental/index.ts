// What other modules may use of rental (test/ops/import-graph.test.ts: they import nothing else of it).
export { isOverlapViolation } from './bookings/repo.js';
export { journeySettings } from './bookings/settings.js';
export { CATALOGUE_TOPIC } from './catalogue.js';
export { EXTERNAL, PLATFORM_COMMISSION, PLATFORM_PENALTIES, vendorAccount } from './ledger/accounts.js';
export type { LedgerKind } from './ledger/accounts.js';
export { clearMaturedIn } from './ledger/clearing.js';
export { clearingMovement } from './ledger/links.js';
export { fromMinor, toMinor } from './ledger/money.js';
export { LedgerKeyReused, postLedgerTransaction } from './ledger/post.js';
export type { PostLedgerInput } from './ledger/post.js';
export { txByKey } from './ledger/repo.js';
export { marketplaceSettingsIn } from './ledger/settings.js';
export type { CommissionTier, MarketplaceSettings } from './ledger/settings.js';
export { localToUtc } from './time.js';
export { decryptIban, encryptIban, parseIban } from './vendors/iban.js';
