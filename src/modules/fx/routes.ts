import type { FastifyPluginAsync } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { useMemoisedJsonBodies } from '../../platform/http/json-body.js';
import { wpErrors } from '../../platform/http/schemas.js';
import * as admin from './admin-service.js';
import { convertPrices, parseConvertBody, RATE_LIMITED_BODY } from './convert-service.js';
import type { GeoLookup } from './geo.js';
import { listNotices, reportNotice, snoozeNotice } from './notices.js';
import * as S from './schemas.js';
import { fxRuntime } from './state.js';

const NS = '/rova-fx/v1';
const tags = ['rova-fx'];
const STORE = { auth: { cap: 'manage_store' } } as const;

export function fxRoutes(geoFor: (p: Platform) => GeoLookup): FastifyPluginAsync {
  return async (app) => {
    const rt = () => fxRuntime(app.platform);

    // POST /convert in a scope of its own: storefront pages send the same few bodies over and over, so its JSON
    // bodies are parsed once per distinct text (frozen, shared; parseConvertBody keeps its result per body object)
    await app.register(async (scope) => {
      useMemoisedJsonBodies(scope, { entries: 1_000, maxLength: 4_096 });
      scope.post(
        `${NS}/convert`,
        {
          config: { auth: 'public', readOnly: true },
          schema: {
            tags,
            summary: 'Price products in the visitor currency (public, rate-limited per address)',
            description:
              'Returns price HTML of public products only, in the requested (or detected) currency. 200 carries Cache-Control: no-store; 429 carries Retry-After.',
            security: [],
            body: S.ConvertBody,
            response: { 200: S.ConvertResult, 429: S.RateLimited, ...wpErrors(400) },
          },
        },
        async (req, reply) => {
          const input = parseConvertBody(req.body);
          const out = await convertPrices(rt(), geoFor(app.platform), req, input);
          // the body is returned, not `reply.send()`ed: an async handler that returns the reply makes Fastify wait for
          // the response to finish through the reply's `then` (an end-of-stream listener per request)
          if (out.limited) {
            reply.code(429).header('Retry-After', String(out.retryAfter)).type('application/json; charset=utf-8');
            return RATE_LIMITED_BODY;
          }
          reply.header('Cache-Control', 'no-store').type('application/json; charset=utf-8');
          return out.body;
        },
      );
    });

    app.get(
      `${NS}/settings`,
      {
        config: STORE,
        schema: {
          tags,
          summary: 'Currency settings (defaults filled)',
          response: { 200: S.Settings, ...wpErrors(401, 403) },
        },
      },
      async () => admin.getSettings(rt()),
    );
    app.post(
      `${NS}/settings`,
      {
        config: STORE,
        schema: {
          tags,
          summary: 'Save currency settings (merges top-level keys)',
          body: S.SettingsBody,
          response: { 200: S.SettingsSaved, ...wpErrors(400, 401, 403) },
        },
      },
      async (req) => {
        req.auditTarget = 'fx:settings';
        return admin.saveSettings(rt(), req.body);
      },
    );

    app.get(
      `${NS}/currencies`,
      {
        config: STORE,
        schema: {
          tags,
          summary: 'Base currency and configured currencies',
          response: { 200: S.Currencies, ...wpErrors(401, 403) },
        },
      },
      async () => admin.getCurrencies(rt()),
    );
    app.post(
      `${NS}/currencies`,
      {
        config: STORE,
        schema: {
          tags,
          summary: 'Save the currency list (rows not sent are removed)',
          body: S.CurrenciesBody,
          response: { 200: S.CurrenciesSaved, ...wpErrors(400, 401, 403) },
        },
      },
      async (req) => {
        req.auditTarget = 'fx:currencies';
        return admin.saveCurrencies(rt(), req.body);
      },
    );

    app.post(
      `${NS}/rates/sync`,
      {
        config: STORE,
        schema: {
          tags,
          summary: 'Fetch exchange rates now (auto rows only)',
          response: { 200: S.SyncResult, ...wpErrors(401, 403, 502) },
        },
      },
      async (req) => {
        req.auditTarget = 'fx:rates';
        return admin.syncRates(rt());
      },
    );
    app.get(
      `${NS}/rates/preview`,
      {
        config: STORE,
        schema: {
          tags,
          summary: 'Raw and effective rate of each stored currency',
          response: { 200: S.Preview, ...wpErrors(401, 403) },
        },
      },
      async () => admin.previewStored(rt()),
    );
    app.post(
      `${NS}/rates/preview`,
      {
        config: { ...STORE, readOnly: true },
        schema: {
          tags,
          summary: 'Preview an unsaved currency list (saves nothing)',
          body: S.CurrenciesBody,
          response: { 200: S.Preview, ...wpErrors(400, 401, 403) },
        },
      },
      async (req) => admin.previewSubmitted(rt(), req.body),
    );

    app.get(
      `${NS}/cache-notice`,
      {
        config: STORE,
        schema: {
          tags,
          summary: 'Admin notices: cache anomalies (and whether you snoozed each), stale exchange rates',
          response: { 200: S.NoticeList, ...wpErrors(401, 403) },
        },
      },
      async (req) => listNotices(app.platform, req.auth.user!.id),
    );
    app.post(
      `${NS}/cache-notice/report`,
      {
        config: STORE,
        schema: {
          tags,
          summary: 'Record a cache anomaly seen by a storefront ("" path clears)',
          body: S.NoticeReportBody,
          response: { 200: S.NoticeReported, ...wpErrors(400, 401, 403) },
        },
      },
      async (req) => {
        req.auditTarget = 'fx:cache-notice';
        return reportNotice(app.platform, req.body);
      },
    );
    for (const kind of ['anomaly', 'fragments'] as const) {
      app.post(
        `${NS}/cache-notice/snooze-${kind}`,
        {
          config: STORE,
          schema: {
            tags,
            summary: `Snooze the cache-${kind} notice until its signature changes`,
            response: { 200: S.Snoozed, ...wpErrors(401, 403, 409) },
          },
        },
        async (req) => {
          req.auditTarget = `fx:snooze-${kind}`;
          return snoozeNotice(app.platform, req.auth.user!.id, kind);
        },
      );
    }
  };
}
