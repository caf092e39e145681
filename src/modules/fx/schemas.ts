import { Type } from '@sinclair/typebox';

const Bool = Type.Boolean();

export const Settings = Type.Object(
  {
    auto_detect: Bool,
    cache_compat: Bool,
    switcher: Type.Object({
      show_flag: Bool,
      show_name: Bool,
      show_symbol: Bool,
      show_code: Bool,
      size: Type.Union([Type.Literal('small'), Type.Literal('medium'), Type.Literal('large')]),
    }),
    rate_update_interval: Type.Union([
      Type.Literal('manual'),
      Type.Literal('hourly'),
      Type.Literal('twicedaily'),
      Type.Literal('daily'),
    ]),
    rate_sources: Type.Array(Type.String(), { description: 'Ordered list of exchangerate-api, ecb, file' }),
    product_widget: Type.Object({
      enabled: Bool,
      show_flags: Bool,
      currencies: Type.Array(Type.String(), { maxItems: 5 }),
    }),
  },
  { description: 'Currency service settings' },
);

export const SettingsBody = Type.Object(
  {
    auto_detect: Type.Optional(Type.Unknown()),
    cache_compat: Type.Optional(Type.Unknown()),
    switcher: Type.Optional(Type.Unknown({ description: '{show_flag, show_name, show_symbol, show_code, size}' })),
    rate_update_interval: Type.Optional(
      Type.Unknown({ description: 'manual | hourly | twicedaily | daily (invalid → manual)' }),
    ),
    rate_sources: Type.Optional(Type.Unknown({ description: 'ordered source ids; unknown ids → 400' })),
    product_widget: Type.Optional(Type.Unknown({ description: '{enabled, show_flags, currencies (max 5)}' })),
  },
  {
    additionalProperties: false,
    description:
      'Top-level keys to merge (the values are sanitised, corrections reported as adjustments); any other key → 400',
  },
);

export const Adjustment = Type.Object({
  code: Type.String(),
  field: Type.String(),
  reason: Type.String(),
  value: Type.Unknown(),
});
export const NextSync = Type.Union([Type.Object({ time: Type.Integer(), iso: Type.String() }), Type.Null()]);
export const LastSync = Type.Union([
  Type.Object({
    time: Type.Integer(),
    base: Type.String(),
    source: Type.Optional(Type.String({ description: 'exchangerate-api, ecb, or file (the bundled snapshot)' })),
  }),
  Type.Null(),
]);
export const StaleRates = Type.Array(
  Type.Object({ code: Type.String(), rate_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]) }),
  {
    description:
      'Enabled currencies whose automatic rate is older than 72 hours (or was never fetched); bundled-snapshot rates keep the snapshot date',
  },
);

export const SettingsSaved = Type.Object({
  success: Type.Literal(true),
  settings: Settings,
  adjustments: Type.Array(Adjustment),
  next_sync: NextSync,
});

export const CurrencyRow = Type.Object(
  {
    code: Type.String({ pattern: '^[A-Z]{3}$' }),
    enabled: Bool,
    rate: Type.Object({
      type: Type.Union([Type.Literal('auto'), Type.Literal('manual')]),
      value: Type.Number({ minimum: 0 }),
      updated_at: Type.Union([Type.Integer(), Type.Null()], {
        description: 'Unix time of the last sync that wrote this rate',
      }),
    }),
    fee: Type.Object({
      type: Type.Union([Type.Literal('none'), Type.Literal('percentage'), Type.Literal('fixed')]),
      value: Type.Number(),
    }),
    rounding: Type.Object({
      type: Type.Union([Type.Literal('disabled'), Type.Literal('nearest'), Type.Literal('up'), Type.Literal('down')]),
      value: Type.Number({ minimum: 0 }),
      subtract: Type.Number({ minimum: 0 }),
    }),
    format: Type.Object({
      symbol: Type.String(),
      position: Type.Union([
        Type.Literal('left'),
        Type.Literal('right'),
        Type.Literal('left_space'),
        Type.Literal('right_space'),
      ]),
      decimals: Type.Integer({ minimum: 0, maximum: 4 }),
      decimal_sep: Type.String(),
      thousand_sep: Type.String(),
    }),
  },
  { description: 'A configured currency (never the base)' },
);

export const CurrenciesBody = Type.Object(
  {
    base_currency: Type.Optional(Type.Unknown()),
    currencies: Type.Unknown({
      description: 'Array of currency rows (at most 500; duplicates → 400); rows not sent are removed',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        currencies: [
          { code: 'EUR', enabled: true, rate: { type: 'auto', value: 0 }, fee: { type: 'percentage', value: 2 } },
          {
            code: 'JPY',
            enabled: true,
            rate: { type: 'manual', value: 150.4 },
            rounding: { type: 'nearest', value: 10, subtract: 0 },
          },
        ],
      },
    ],
  },
);

export const Currencies = Type.Object({
  base_currency: Type.String(),
  currencies: Type.Array(CurrencyRow),
  last_sync: LastSync,
  next_sync: NextSync,
  stale_rates: StaleRates,
});
export const CurrenciesSaved = Type.Object({
  success: Type.Literal(true),
  currencies: Type.Array(CurrencyRow),
  adjustments: Type.Array(Adjustment),
});

export const SyncResult = Type.Object({
  success: Type.Literal(true),
  source: Type.String(),
  rates: Type.Record(Type.String(), Type.Number(), {
    description: 'Every rate the source returned (1 base = rate × CODE)',
  }),
  updated: Type.Array(Type.String()),
  rejected: Type.Array(Type.Object({ code: Type.String(), stored: Type.Number(), fetched: Type.Number() })),
});

export const Preview = Type.Object({
  base_currency: Type.String(),
  sample_amount: Type.Number(),
  rates: Type.Array(
    Type.Object({
      code: Type.String(),
      raw_rate: Type.Number(),
      effective_rate: Type.Number(),
      usable: Bool,
      sample_from: Type.String(),
      sample_to: Type.String(),
      rate_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
        description: 'Day (UTC) the rate is from',
      }),
      stale: Type.Boolean({ description: 'An automatic rate older than 72 hours or never fetched' }),
    }),
  ),
});

/**
 * No defaults, no coercible types: the route's parser hands every request with the same body text one shared,
 * frozen object (routes.ts), which validation must not write to.
 */
export const ConvertBody = Type.Object(
  {
    currency: Type.Optional(Type.Unknown({ description: 'ISO 4217 code, or null/omitted/"" to detect' })),
    product_ids: Type.Unknown({ description: 'Array of product or variation ids (at most 50)' }),
  },
  { additionalProperties: false, examples: [{ currency: 'EUR', product_ids: [1, 2, 3] }] },
);

export const ConvertResult = Type.Object({
  currency: Type.String(),
  detected: Bool,
  prices: Type.Record(Type.String(), Type.String(), { description: 'Product id → price HTML' }),
});

export const RateLimited = Type.Object({ code: Type.Literal('rova_fx_rate_limited'), message: Type.String() });

export const NoticeList = Type.Object({
  notices: Type.Array(
    Type.Object({
      kind: Type.String({
        description: 'anomaly, fragments, or stale_rates (not snoozable: it ends when a sync succeeds)',
      }),
      signature: Type.String(),
      snoozed: Bool,
      message: Type.Optional(Type.String()),
    }),
  ),
});
export const NoticeReportBody = Type.Object(
  {
    kind: Type.Unknown({ description: 'anomaly | fragments' }),
    path: Type.Unknown({ description: 'page path; "" clears' }),
  },
  { additionalProperties: false },
);
export const NoticeReported = Type.Object({
  success: Type.Literal(true),
  kind: Type.String(),
  signature: Type.String(),
});
export const Snoozed = Type.Object({ success: Type.Literal(true), signature: Type.String() });
