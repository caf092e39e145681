import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { HttpErrors } from '../../platform/http/errors.js';
import { demoPagesOnly } from '../../platform/demo-data.js';
import { ASSET_PREFIX, BOOK_PREFIX, isBookAsset, webAssets } from './assets.js';
import { journeySettings } from '../rental/index.js';
import { accountPage, storeAccountPage, rentPage, rentPageCsp } from './rent-page.js';
import { mailSettings } from '../../platform/mail/settings.js';
import { configScript, scriptSafeJson, storefrontConfig } from './config-object.js';
import { demoCatalogue } from './demo-catalogue.js';
import { productPage, shopPage } from './demo-page.js';
import { embedTags } from './embed.js';
import { CONFIG_CACHE, IMMUTABLE, PAGE_CACHE, SHORT, sendCacheable, strongEtag } from './http-cache.js';

const HTML = 'text/html; charset=utf-8';
const tags = ['storefront'];

/** Root routes: the storefront scripts, their config object, and the demo shop. */
export const storefrontRoutes: FastifyPluginAsync = async (app) => {
  const platform = app.platform;
  const demoOnly = demoPagesOnly(platform);
  /** The demo rental pages' CSP: Stripe's origins added when the widget can take card payment. */
  const rentCsp = (): string => {
    const j = journeySettings(platform);
    const st = j.paymentProviders.has('stripe') && j.stripe?.publishableKey ? j.stripe : null;
    return rentPageCsp(
      st
        ? {
            jsUrl: st.jsUrl,
            apiOrigin: st.api
              ? `${st.api.protocol}://${st.api.host.includes(':') ? `[${st.api.host}]` : st.api.host}:${st.api.port}`
              : 'https://api.stripe.com',
          }
        : null,
    );
  };

  app.get(
    ASSET_PREFIX + 'config.js',
    {
      config: { auth: 'public' },
      schema: { tags, summary: 'Storefront config object as a script (sets window.rovaFx)' },
    },
    async (req, reply) => {
      const body = configScript(storefrontConfig(platform));
      return sendCacheable(req, reply, {
        body,
        type: 'text/javascript; charset=utf-8',
        etag: strongEtag(body),
        cacheControl: CONFIG_CACHE,
      });
    },
  );

  app.get(
    ASSET_PREFIX + 'config.json',
    { config: { auth: 'public' }, schema: { tags, summary: 'Storefront config object as JSON' } },
    async (req, reply) => {
      const body = scriptSafeJson(storefrontConfig(platform));
      return sendCacheable(req, reply, {
        body,
        type: 'application/json; charset=utf-8',
        etag: strongEtag(body),
        cacheControl: CONFIG_CACHE,
      });
    },
  );

  app.get(
    ASSET_PREFIX + ':file',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary:
          'Storefront script or stylesheet (converter.js, switcher.js, widget.js, switcher.css, widget.css, or a content-hashed name)',
        params: Type.Object({ file: Type.String({ maxLength: 100 }) }),
      },
    },
    async (req, reply) => {
      const { file } = req.params as { file: string };
      const found = (await webAssets()).get(file);
      if (!found || isBookAsset(found.asset.name)) throw HttpErrors.notFound(`No storefront asset named ${file}.`);
      const { asset, hashed } = found;
      return sendCacheable(req, reply, {
        body: asset.body,
        type: asset.type,
        etag: `"${asset.hash}"`,
        cacheControl: hashed ? IMMUTABLE : SHORT,
      });
    },
  );

  app.get(
    BOOK_PREFIX + ':file',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Booking widget script (book.js, or its content-hashed name: cached a year)',
        params: Type.Object({ file: Type.String({ maxLength: 100 }) }),
      },
    },
    async (req, reply) => {
      const { file } = req.params as { file: string };
      const found = (await webAssets()).get(file);
      if (!found || !isBookAsset(found.asset.name)) throw HttpErrors.notFound(`No booking widget asset named ${file}.`);
      const { asset, hashed } = found;
      return sendCacheable(req, reply, {
        body: asset.body,
        type: asset.type,
        etag: `"${asset.hash}"`,
        cacheControl: hashed ? IMMUTABLE : SHORT,
      });
    },
  );

  app.get(
    '/demo/rent',
    {
      config: { auth: 'public' },
      preHandler: demoOnly,
      schema: { tags, summary: 'Demo rental page: the booking widget inline and as a pop-up (cacheable, strict CSP)' },
    },
    async (req, reply) => {
      const body = rentPage((await webAssets()).url('book.js'), platform.config.restRoot);
      reply.header('Content-Security-Policy', rentCsp());
      return sendCacheable(req, reply, { body, type: HTML, etag: strongEtag(body), cacheControl: PAGE_CACHE });
    },
  );

  app.get(
    '/demo/rent/account',
    {
      config: { auth: 'public' },
      preHandler: demoOnly,
      schema: {
        tags,
        summary: 'Demo customer account page: the booking widget in account mode (cacheable, strict CSP)',
      },
    },
    async (req, reply) => {
      const body = accountPage((await webAssets()).url('book.js'), platform.config.restRoot);
      reply.header('Content-Security-Policy', rentCsp());
      return sendCacheable(req, reply, { body, type: HTML, etag: strongEtag(body), cacheControl: PAGE_CACHE });
    },
  );

  app.get(
    '/account',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary:
          'The customer account page (the booking widget in account mode), served with or without demo data: the default ACCOUNT_URL of booking mails (`?rova_booking=<reference>`), where the password-reset mail leads (`?rova_reset=<token>`) and a booking mail’s manage link (`?rova_manage=<token>`, that booking without signing in; strict CSP, no referrer)',
        querystring: Type.Object({
          rova_reset: Type.Optional(Type.String({ maxLength: 200 })),
          rova_booking: Type.Optional(Type.String({ maxLength: 64 })),
          rova_manage: Type.Optional(Type.String({ maxLength: 300 })),
          rova_lang: Type.Optional(Type.String({ maxLength: 10 })),
        }),
      },
    },
    async (req, reply) => {
      const body = storeAccountPage(
        (await webAssets()).url('book.js'),
        platform.config.restRoot,
        mailSettings(platform).storeName,
      );
      reply.header('Content-Security-Policy', rentCsp());
      // a reset token can be in this page's address: no other site learns it from a Referer
      reply.header('Referrer-Policy', 'no-referrer');
      reply.header('Cache-Control', 'no-store');
      reply.type(HTML);
      return body;
    },
  );

  async function head(widget: boolean): Promise<{ head: string; base: string }> {
    const cfg = storefrontConfig(platform);
    return { head: embedTags(await webAssets(), cfg, { switcher: true, widget }), base: cfg.base };
  }

  app.get(
    '/demo/shop',
    {
      config: { auth: 'public' },
      preHandler: demoOnly,
      schema: { tags, summary: 'Demo shop: the public catalogue as a cacheable page in the base currency' },
    },
    async (req, reply) => {
      const [items, h] = await Promise.all([demoCatalogue(platform), head(false)]);
      const body = shopPage(h.head, items, h.base);
      return sendCacheable(req, reply, { body, type: HTML, etag: strongEtag(body), cacheControl: PAGE_CACHE });
    },
  );

  app.get(
    '/demo/shop/:product',
    {
      config: { auth: 'public' },
      preHandler: demoOnly,
      schema: {
        tags,
        summary: 'Demo shop: one product (by id or slug)',
        params: Type.Object({ product: Type.String({ maxLength: 200 }) }),
      },
    },
    async (req, reply) => {
      const { product } = req.params as { product: string };
      const [items, h] = await Promise.all([demoCatalogue(platform), head(true)]);
      const item = /^[1-9][0-9]{0,15}$/.test(product)
        ? items.find((i) => i.id === Number(product))
        : items.find((i) => i.slug === product);
      if (!item) throw HttpErrors.notFound('No such product in the demo shop.');
      const body = productPage(h.head, item);
      return sendCacheable(req, reply, { body, type: HTML, etag: strongEtag(body), cacheControl: PAGE_CACHE });
    },
  );
};
