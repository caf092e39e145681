// What other modules may use of store (test/ops/import-graph.test.ts: they import nothing else of it).
export { catalogueView } from './catalogue-view.js';
export { currencyPort, setCurrencyPort } from './currency-port.js';
export type { CurrencyFormat, CurrencyPort, PricingCurrency, SymbolPosition } from './currency-port.js';
export { amountText, escapeHtml } from './price-html.js';
export { intlFormat } from './pricing.js';
export { isPublicRecord } from './public.js';
export { loadAll } from './repo.js';
export { CATALOGUE_TOPIC } from './service.js';
export { dedupeSlug, slugify } from './slug.js';
export { stockAfter } from './stock.js';
export type { Stock } from './stock.js';
export type { Attribute, Backorders, ProductRecord } from './types.js';
