/**
 * Rova booking widget (/assets/rova-book/book.js), loaded with one tag:
 *   <script src="https://rova.example/assets/rova-book/book.js" defer></script>
 * Mount points: <div data-rova-book> (inline), <div data-rova-book="account"> (the customer's account),
 * <button data-rova-book-open> (pop-up dialog), data-rova-book-floating on the script tag (a floating button);
 * host code: window.Rova.book.open(options) / .close(). Options: data attributes, then `?rova_…` URL
 * parameters, then open() options (later wins). Everything renders in a shadow root; no personal data is
 * ever read from or written to the page, so the page itself can be cached and shared.
 */
import { ManageApi } from './manage-api.js';
import { AccountWidget } from './account-widget.js';
import { Api, type Currency, type Location, type PaymentConfig } from './api.js';
import { h } from './dom.js';
import { setParentOrigin } from './events.js';
import { i18n, pickLang, type Lang } from './i18n/index.js';
import {
  fromDataset,
  fromOpen,
  fromUrl,
  queryFrom,
  vehicleFrom,
  type BookOptions,
  type RawOptions,
} from './options.js';
import { adoptStyles, BookWidget } from './widget.js';

interface RovaBookApi {
  open(options?: BookOptions): void;
  close(): void;
}

declare global {
  interface Window {
    Rova?: { book?: RovaBookApi };
  }
}

const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;

/** REST root: the script tag's data-api, else `<script origin>/wp-json`. */
function restRoot(): string {
  const own = script?.dataset.api;
  if (own) return own.replace(/\/+$/, '');
  const origin = script?.src ? new URL(script.src, location.href).origin : location.origin;
  return `${origin}/wp-json`;
}

const CODE = /^[A-Z]{3}$/;
const COOKIE = 'rova_fx_currency';
/** The fx scripts' event: a currency was picked (the cookie is already written). */
const CURRENCY_CHANGED = 'rova-fx:currency-changed';

let detected: Promise<string | null> | null = null;
/** The visitor's pick in the widget's (or the page's fx) currency switch: wins over every other source. */
let picked: string | null = null;
let currencies: Promise<Currency[]> | null = null;
let payments: Promise<PaymentConfig | null> | null = null;

/** How the store takes payment (asked once per page; unknown → pay at pick-up only). */
function paymentConfig(): Promise<PaymentConfig | null> {
  payments ??= api.paymentConfig().catch(() => null);
  return payments;
}

/** The store's offered currencies, as the fx switcher lists them (the storefront config object). */
function offeredCurrencies(): Promise<Currency[]> {
  currencies ??= api.currencies(assetOrigin()).catch(() => []);
  return currencies;
}

/** Writes the fx scripts' cookie (same attributes as their writer) and tells the page, as their switcher does. */
function pickCurrency(code: string): void {
  if (!CODE.test(code)) return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${COOKIE}=${code}; path=/; max-age=${30 * 86400}; SameSite=Lax${secure}`;
  picked = code;
  document.dispatchEvent(new CustomEvent(CURRENCY_CHANGED, { bubbles: true, detail: { currency: code } }));
}

document.addEventListener(CURRENCY_CHANGED, (e) => {
  const c = (e as CustomEvent<{ currency?: unknown }>).detail?.currency;
  if (typeof c === 'string' && CODE.test(c)) picked = c;
});

/**
 * The visitor's currency in the fx scripts' order: the widget's option, then `?currency=`, then the
 * rova_fx_currency cookie (the switcher's choice), then what the currency service detects (asked once per page).
 */
function visitorCurrency(o: RawOptions): Promise<string | null> {
  const pick = (v: string | null | undefined) => {
    const c = (v ?? '').trim().toUpperCase();
    return CODE.test(c) ? c : null;
  };
  const fromCookie = /(?:^|;\s*)rova_fx_currency=([A-Za-z]{3})/.exec(document.cookie)?.[1];
  const chosen =
    pick(picked) ?? pick(o.currency) ?? pick(new URLSearchParams(location.search).get('currency')) ?? pick(fromCookie);
  if (chosen) return Promise.resolve(chosen);
  detected ??= api.detectCurrency().catch(() => null);
  return detected;
}

function langOf(o: RawOptions): Lang {
  return pickLang(o.lang) ?? pickLang(document.documentElement.lang) ?? 'en';
}

/** Origin of the script (its /assets/… files live there). */
function assetOrigin(): string {
  return script?.src ? new URL(script.src, location.href).origin : location.origin;
}

const api = new Api(restRoot());
setParentOrigin(script?.dataset.parentOrigin);
let locations: Promise<Location[]> | null = null;

/** Inline widgets with a booking under way (a vehicle chosen, not yet booked): the floating button steps aside. */
const underWay = new Set<HTMLElement>();
const UNDER_WAY = new Set(['detail', 'auth', 'review', 'pay']);

function floatingAside(): void {
  const aside = underWay.size > 0;
  for (const el of Array.from(
    document.querySelectorAll<HTMLElement>('[data-rova-book-floating-host], [data-rova-book-spacer]'),
  ))
    el.hidden = aside;
}

/** The store's locations, asked once for every widget on the page (asked again after a failure). */
function storeLocations(): Promise<Location[]> {
  if (!locations) {
    const l = api.locations();
    locations = l;
    l.catch(() => {
      if (locations === l) locations = null; // the next widget asks again
    });
  }
  return locations;
}

function mount(
  target: HTMLElement,
  container: HTMLElement,
  o: RawOptions,
  onStep?: (step: string) => void,
): BookWidget {
  const today = new Date().toISOString().slice(0, 10);
  return new BookWidget(
    target,
    container,
    {
      api,
      i18n: i18n(langOf(o)),
      currency: () => visitorCurrency(o),
      currencies: offeredCurrencies,
      pickCurrency,
      locations: storeLocations(),
      payments: paymentConfig,
      onStep,
    },
    { query: queryFrom(o, today), vehicle: vehicleFrom(o) },
  );
}

/** The reset token is spent: it leaves the address bar (and so the history and any later copy of the URL). */
function dropResetToken(): void {
  const url = new URL(location.href);
  url.searchParams.delete('rova_reset');
  history.replaceState(history.state, '', url);
}

function inline(el: HTMLElement): void {
  if (el.shadowRoot || el.dataset.rovaBookMounted) return;
  el.dataset.rovaBookMounted = '';
  const root = el.attachShadow({ mode: 'open' });
  adoptStyles(root);
  const container = h('div');
  root.append(container);
  const o = { ...fromDataset(el.dataset), ...fromUrl(location.search) };
  const manage = new URLSearchParams(location.search).get('rova_manage');
  if (el.dataset.rovaBook === 'account')
    new AccountWidget(el, container, {
      api: manage ? new ManageApi(restRoot(), manage) : api,
      manage: manage !== null,
      i18n: i18n(langOf(o)),
      // a guest pays the rest by card too (POST /guest/manage/pay-due), as the account does
      payments: paymentConfig,
      resetToken: new URLSearchParams(location.search).get('rova_reset'),
      onReset: dropResetToken,
      open: new URLSearchParams(location.search).get('rova_booking') ?? undefined,
      locations: storeLocations(),
    });
  else
    mount(el, container, o, (step) => {
      if (UNDER_WAY.has(step)) underWay.add(el);
      else underWay.delete(el);
      floatingAside();
    });
}

// ── pop-up ──────────────────────────────────────────────────────────────────

let popup: { host: HTMLElement; dialog: HTMLDialogElement; opener: HTMLElement | null } | null = null;

function focusables(root: ShadowRoot): HTMLElement[] {
  return Array.from(
    root.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])'),
  ).filter((e) => !e.hasAttribute('disabled') && e.getClientRects().length > 0);
}

function openDialog(target: HTMLElement | null, o: RawOptions, opener: HTMLElement | null = target): void {
  close();
  // focus returns here on close: the pop-up's button, or what had focus when host code called open()
  const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const host = h('div', { 'data-rova-book-dialog': '' });
  document.body.append(host);
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root);
  const lang = langOf(o);
  const closeBtn = h(
    'button',
    { type: 'button', class: 'secondary', on: { click: () => close() } },
    i18n(lang).t('close'),
  );
  const container = h('div');
  const dialog = h(
    'dialog',
    { 'aria-label': i18n(lang).t('title') },
    h('div', { class: 'dialog-bar' }, closeBtn),
    container,
  );
  root.append(dialog);
  dialog.addEventListener('close', () => close());
  // focus trap: Tab and Shift+Tab cycle inside the dialog (showModal makes the page inert; this keeps focus off the browser UI too)
  dialog.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const f = focusables(root);
    const first = f[0];
    const last = f[f.length - 1];
    if (!first || !last) return;
    // a slotted light-DOM control (Stripe's Payment Element) has focus outside the shadow root but inside the host
    const active =
      root.activeElement ??
      (document.activeElement && host.contains(document.activeElement) ? document.activeElement : null);
    if (e.shiftKey && (active === first || !active)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  });
  popup = { host, dialog, opener: opener ?? before };
  mount(target ?? host, container, o);
  dialog.showModal();
  container.querySelector<HTMLElement>('input, select, button')?.focus();
}

function close(): void {
  const p = popup;
  if (!p) return;
  popup = null;
  if (p.dialog.open) p.dialog.close();
  p.host.remove();
  p.opener?.focus();
}

/**
 * The floating button (data-rova-book-floating on the script tag; its data-location etc. are the options): a
 * fixed corner button opening the pop-up, plus a spacer as tall as the button at the end of the page, so the page's
 * last content can always be scrolled clear of it.
 */
function floating(): void {
  if (
    !script ||
    script.dataset.rovaBookFloating === undefined ||
    document.querySelector('[data-rova-book-floating-host]')
  )
    return;
  const o = fromDataset(script.dataset);
  const lang = langOf(o);
  const host = h('div', { 'data-rova-book-floating-host': '' });
  const spacer = h('div', { 'data-rova-book-spacer': '', 'aria-hidden': 'true' });
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root);
  adoptStyles(spacer.attachShadow({ mode: 'open' }));
  const label = script.dataset.label || i18n(lang).t('openBooking');
  const button = h(
    'button',
    {
      type: 'button',
      class: 'floating',
      part: 'floating',
      'aria-haspopup': 'dialog',
      on: { click: () => openDialog(host, { ...o, ...fromUrl(location.search) }, button) },
    },
    label,
  );
  root.append(button);
  document.body.append(spacer, host);
}

function scan(): void {
  floating();
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-rova-book]'))) inline(el);
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-rova-book-open]'))) {
    if (el.dataset.rovaBookBound !== undefined) continue;
    el.dataset.rovaBookBound = '';
    el.addEventListener('click', (e) => {
      e.preventDefault();
      openDialog(el, { ...fromDataset(el.dataset), ...fromUrl(location.search) });
    });
  }
}

window.Rova = window.Rova ?? {};
window.Rova.book = {
  open: (options) => openDialog(null, { ...fromUrl(location.search), ...fromOpen(options) }),
  close,
};

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan, { once: true });
else scan();
