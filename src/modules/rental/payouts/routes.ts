import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { RentalErrors } from '../errors.js';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { IdempotencyKeyHeader, keyedWrite } from '../../../platform/idempotency/route.js';
import { clearMaturedCommissions } from '../ledger/clearing.js';
import { marketplaceSettings, saveMarketplaceSettings } from '../ledger/settings.js';
import { PageSchema, pageOf, parsePaging } from '../paging.js';
import {
  CallbackBody,
  CallbackResult,
  Payout,
  PayoutIdParams,
  PayoutListQuery,
  PayoutRequestBody,
  PayoutStatementLines,
  RejectPayoutBody,
  Settings,
  SettingsBody,
  Summary,
  SummaryQuery,
} from './schemas.js';
import {
  approvePayout,
  ledgerOwner,
  payoutOf,
  payoutsPage,
  processPayoutCallback,
  rejectPayout,
  requestPayout,
} from './service.js';
import { payoutStatementData, readablePayout } from './lines.js';
import { statementCsv } from './lines-csv.js';
import { payoutStatement } from './statement.js';
import { ledgerSummary } from './summary.js';
import { payoutView, statementLinesView } from './views.js';
import { rotateWebhookSecret, verifyWebhook, webhookSecretStored, webhookSecrets } from './webhook.js';

const vendorOrAdmin = { auth: { authenticated: true } } as const;
const vendorOnly = { auth: { cap: 'manage_vendor_account' } } as const;
const admin = { auth: { cap: 'manage_options' } } as const;
const tags = ['rental v2: ledger and payouts'];

const rawBodies = new WeakMap<FastifyRequest, string>();

/** rova-rental/v2 ledger summary, payouts (vendor request, admin decisions), the processor callback, payout settings. */
export const payoutRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;

  app.get(
    '/ledger/summary',
    {
      config: vendorOrAdmin,
      schema: {
        tags,
        summary:
          "A vendor's balances, revenue and growth, occupancy, cancellation rate, daily series and ledger entries (paged)",
        querystring: SummaryQuery,
        response: { 200: RentalEnvelope(Summary), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const vendorId = await ledgerOwner(p.db, req.auth.user!, req.query.vendor_id);
      return rentalOk(await ledgerSummary(p, vendorId, req.query, parsePaging(req.query)), '');
    },
  );

  app.post(
    '/ledger/payouts',
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: 'Request a payout of available money (Idempotency-Key honoured)',
        body: PayoutRequestBody,
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' })),
        }),
        description:
          '409 STATE_CONFLICT with details.reason pending_exists | insufficient_funds | payout_freeze | idempotency_key_reused; 400 for amount ≤ 0 or below the minimum.',
        response: {
          201: RentalEnvelope(Type.Object({ payout: Payout })),
          200: RentalEnvelope(Type.Object({ payout: Payout })),
          ...rentalErrors(400, 401, 403, 404, 409),
        },
      },
    },
    async (req, reply) => {
      const r = await requestPayout(p, req.auth.user!, req.body.amount, req.headers['idempotency-key'] ?? null);
      req.auditTarget = `payout:${r.payout.id}`;
      const full = (await payoutOf(p.db, Number(r.payout.id)))!;
      return reply
        .code(r.replayed ? 200 : 201)
        .send(
          rentalOk(
            { payout: payoutView(full) },
            r.replayed ? 'Payout already requested (replay).' : 'Payout requested.',
          ),
        );
    },
  );

  app.get(
    '/ledger/payouts',
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: "The calling vendor's payouts (newest first)",
        querystring: Type.Object({
          status: PayoutListQuery.properties.status,
          page: PayoutListQuery.properties.page,
          per_page: PayoutListQuery.properties.per_page,
        }),
        response: { 200: RentalEnvelope(PageSchema(Payout)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await payoutsPage(
        p.db,
        { status: req.query.status, vendor_id: req.auth.user!.id },
        pg.limit,
        pg.offset,
      );
      return rentalOk(pageOf(r.items.map(payoutView), r.total, pg), '');
    },
  );

  app.get(
    '/ledger/payouts/:id/statement',
    {
      config: vendorOrAdmin,
      schema: {
        tags,
        summary: 'The payout statement PS-YYYY-NNNN as a PDF (the vendor its own, administrators any)',
        params: PayoutIdParams,
        description:
          "Rendered on the server (pdfkit): vendor, account holder, masked IBAN, amount, status and dates, then the statement lines (opening balance, every movement of the available balance the payout covers, closing balance; the same as /lines and /lines.csv). 409 STATE_CONFLICT (details.reason no_statement) while the payout has no statement (requested or rejected); another vendor's payout → 404; other roles → 403.",
        response: {
          200: Type.Unsafe<Buffer>({
            type: 'string',
            format: 'binary',
            description: 'application/pdf (attachment PS-YYYY-NNNN.pdf)',
          }),
          ...rentalErrors(400, 401, 403, 404, 409),
        },
      },
    },
    async (req, reply) => {
      const s = await payoutStatement(p, req.auth.user!, req.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${s.number}.pdf"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(s.pdf);
    },
  );

  app.get(
    '/ledger/payouts/:id/lines',
    {
      config: vendorOrAdmin,
      schema: {
        tags,
        summary:
          "A payout's statement lines: opening balance, every movement of the available balance it covers, closing balance",
        params: PayoutIdParams,
        description:
          "The lines of the statement PDF: every ledger movement of the vendor's available balance since the previous payout was requested (income with its booking's reference, dates, gross and commission; refunds; penalties; payouts returned), this payout last. opening_balance + Σ net = closing_balance. Any payout (also requested or rejected); the vendor its own (another's → 404), administrators any; other roles → 403.",
        response: { 200: RentalEnvelope(PayoutStatementLines), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      const payout = await readablePayout(p.db, req.auth.user!, req.params.id);
      return rentalOk(statementLinesView(await payoutStatementData(p.db, payout)), '');
    },
  );

  app.get(
    '/ledger/payouts/:id/lines.csv',
    {
      config: vendorOrAdmin,
      schema: {
        tags,
        summary: "A payout's statement lines as CSV (the same lines as the PDF)",
        params: PayoutIdParams,
        description:
          'RFC 4180 with CRLF and a UTF-8 BOM; columns line, date, type, description, booking_reference, booking_start, booking_end, gross, commission, penalty, net, balance, currency, transaction_id. The first row is the opening_balance, the last the closing_balance; money as exact decimal text in the currency (e.g. -12.30), dates in the store time zone. Access as for /lines.',
        response: {
          200: Type.Unsafe<string>({
            type: 'string',
            description: 'text/csv (attachment PS-YYYY-NNNN.csv once approved, else payout-<n>.csv)',
          }),
          ...rentalErrors(400, 401, 403, 404, 409),
        },
      },
    },
    async (req, reply) => {
      const payout = await readablePayout(p.db, req.auth.user!, req.params.id);
      const csv = statementCsv(await payoutStatementData(p.db, payout), p.config.storeTimezone);
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${payout.statement_number ?? `payout-${Number(payout.statement_no)}`}.csv"`,
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(csv);
    },
  );

  app.get(
    '/payouts',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Payouts (admin; filter status, vendor)',
        querystring: PayoutListQuery,
        response: { 200: RentalEnvelope(PageSchema(Payout)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await payoutsPage(
        p.db,
        { status: req.query.status, vendor_id: req.query.vendor_id },
        pg.limit,
        pg.offset,
      );
      return rentalOk(pageOf(r.items.map(payoutView), r.total, pg), '');
    },
  );

  app.post(
    '/payouts/:id/approve',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Approve a requested payout (statement PS-YYYY-NNNN; handed to the processor; 409 unless requested)',
        params: PayoutIdParams,
        response: { 200: RentalEnvelope(Type.Object({ payout: Payout })), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) =>
      rentalOk({ payout: payoutView(await approvePayout(p, req.auth.user!, req.params.id)) }, 'Payout approved.'),
  );

  app.post(
    '/payouts/:id/reject',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Reject a requested payout (reason required; the hold goes back to available)',
        params: PayoutIdParams,
        body: RejectPayoutBody,
        response: { 200: RentalEnvelope(Type.Object({ payout: Payout })), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) =>
      rentalOk(
        { payout: payoutView(await rejectPayout(p, req.auth.user!, req.params.id, req.body.reason)) },
        'Payout rejected.',
      ),
  );

  app.post(
    '/payouts/webhook-secret',
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Generate a new processor callback secret (whsec_…, shown once and in a replay of this answer: Idempotency-Key honoured; ROVA_PAYOUT_WEBHOOK_SECRET keeps working beside it)',
        headers: IdempotencyKeyHeader,
        response: {
          201: RentalEnvelope(Type.Object({ secret: Type.String() })),
          ...rentalErrors(400, 401, 403, 409, 422),
        },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const r = await keyedWrite(p, req, reply, {
        action: 'payout-webhook-secret',
        secret: true,
        write: async (tx) => ({
          status: 201,
          body: rentalOk({ secret: await rotateWebhookSecret(p, tx) }, 'Store this secret now: it is not shown again.'),
        }),
        after: () => webhookSecretStored(p),
      });
      return reply.code(r.status as 201).send(r.body as never);
    },
  );

  app.post(
    '/ledger/clearing',
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Run the clearing job now: vendor income past the hold period moves from pending to available (it also runs hourly)',
        response: { 200: RentalEnvelope(Type.Object({ cleared: Type.Integer() })), ...rentalErrors(401, 403) },
      },
    },
    async () => {
      const cleared = await clearMaturedCommissions(p);
      return rentalOk({ cleared }, `${cleared} commission(s) cleared.`);
    },
  );

  app.get(
    '/marketplace/settings',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Marketplace settings (commission, hold days, minimum payout, payout freeze)',
        response: { 200: RentalEnvelope(Settings), ...rentalErrors(401, 403) },
      },
    },
    async () => rentalOk(await marketplaceSettings(p), ''),
  );

  app.put(
    '/marketplace/settings',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change marketplace settings (e.g. {payout_freeze:true})',
        body: SettingsBody,
        response: { 200: RentalEnvelope(Settings), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => rentalOk(await saveMarketplaceSettings(p, req.body), 'Settings saved.'),
  );

  // The processor callback verifies the signature over the exact bytes received: its own scope keeps the raw body.
  await app.register(async (scope) => {
    const hook = scope.withTypeProvider<TypeBoxTypeProvider>();
    hook.removeContentTypeParser('application/json');
    hook.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (req, body, done) => {
      rawBodies.set(req, body as string);
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(RentalErrors.invalidParams('The body is not valid JSON.'), undefined);
      }
    });
    hook.post(
      '/payouts/:id/callback',
      {
        config: { auth: 'public' },
        preValidation: async (req) => {
          // a path that cannot name a payout is a plain 400 from the schema, like on every other route
          if (!/^\d{1,15}$/.test(String((req.params as { id?: unknown }).id))) return;
          const secrets = await webhookSecrets(p);
          if (secrets.length === 0 || !verifyWebhook(secrets, rawBodies.get(req) ?? '', req.headers)) {
            throw RentalErrors.authRequired('Invalid or missing webhook signature.');
          }
        },
        schema: {
          tags,
          summary:
            'Payout processor callback (Standard Webhooks signature; a repeated webhook-id answers {idempotent:true})',
          params: PayoutIdParams,
          body: CallbackBody,
          description:
            'Headers webhook-id, webhook-timestamp (±5 min), webhook-signature (v1,<base64 HMAC-SHA256 of "id.timestamp.body">). The signed body names its payout (payout_id must equal the URL id, else 400 payout_mismatch) and may give the amount (must equal the payout\'s, else 400 amount_mismatch). paid: hold → paid out; failed: back to available (also after paid). A repeated webhook-id for the same payout answers {idempotent:true}. No secret configured → 401.',
          response: { 200: RentalEnvelope(CallbackResult), ...rentalErrors(400, 401, 404, 409) },
        },
      },
      async (req) => {
        const r = await processPayoutCallback(p, req.params.id, String(req.headers['webhook-id']), req.body);
        req.auditTarget = `payout:${req.params.id}`;
        return rentalOk(r, r.idempotent ? 'Callback already processed.' : `Payout ${r.status}.`);
      },
    );
  });
};
