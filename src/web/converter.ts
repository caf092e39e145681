/**
 * Client converter (cache compatibility mode): re-prices `.rova-fx-price[data-rova-fx-product]` markers of a
 * cached base-currency page in the visitor's currency through POST /convert. Behaviour: design/currency.md §8.
 */
import {
  EVENT_CHANGED,
  EVENT_RESOLVED,
  offered,
  readConfig,
  readCookie,
  writeCookie,
  type RovaFxConfig,
} from './config.js';

const MARKER = '.rova-fx-price[data-rova-fx-product]';
const ID = /^[1-9][0-9]*$/;
const CODE = /^[A-Z]{3}$/;

interface MarkerState {
  /** The page's own (base-currency) HTML. */
  base: string;
  /** innerHTML as read back after our last write (null: showing base). */
  written: string | null;
  /** Currency of `written`. */
  currency: string | null;
  /** Currency of a request in flight for this marker (undefined: none; null: detect). */
  pending: string | null | undefined;
}

interface ConvertAnswer {
  currency: string;
  detected: boolean;
  prices: Record<string, unknown>;
}

const states = new WeakMap<Element, MarkerState>();

function stateOf(el: Element): MarkerState {
  const html = el.innerHTML;
  let s = states.get(el);
  if (!s) {
    s = { base: html, written: null, currency: null, pending: undefined };
    states.set(el, s);
  } else if (s.written === null || html !== s.written) {
    // Someone else rewrote the marker: what it shows now is the base HTML.
    s.written = null;
    s.currency = null;
    s.base = html;
  }
  return s;
}

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function show(el: HTMLElement, html: string): void {
  el.innerHTML = html;
  if (reducedMotion()) return;
  el.style.opacity = '0';
  // setTimeout, not requestAnimationFrame: background tabs must not strand prices invisible.
  setTimeout(() => {
    el.style.transition = 'opacity 200ms ease-in';
    el.style.opacity = '1';
    setTimeout(() => {
      el.style.removeProperty('transition');
      el.style.removeProperty('opacity');
    }, 250);
  }, 0);
}

function chunk<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export function startConverter(cfg: RovaFxConfig): { run(): void } {
  /** Currency the latest run wants (null: detecting); answers for anything else are dropped. */
  let wanted: string | null = cfg.base;
  /** Result of a detect request in this page view, so later markers do not detect again. */
  let detectedHere: string | null = null;
  let scheduled = false;

  function resolveCurrency(): string | null {
    const fromCookie = offered(cfg, readCookie(cfg.cookie.name));
    if (fromCookie) return fromCookie;
    const fromUrl = offered(cfg, new URLSearchParams(location.search).get(cfg.urlParam));
    if (fromUrl) return fromUrl;
    if (detectedHere) return detectedHere;
    return cfg.autoDetect ? null : cfg.base;
  }

  function restore(markers: Element[]): void {
    for (const el of markers) {
      const s = stateOf(el);
      s.pending = undefined;
      if (s.written !== null) {
        el.innerHTML = s.base;
        s.written = null;
        s.currency = null;
      }
    }
  }

  function apply(
    groups: Map<string, Element[]>,
    ids: string[],
    sent: string | null,
    answer: ConvertAnswer | null,
  ): void {
    const ok = answer !== null && sent === wanted && answer.currency !== cfg.base;
    for (const id of ids) {
      const html = ok ? answer.prices[id] : undefined;
      for (const el of groups.get(id) ?? []) {
        const s = states.get(el);
        if (!s || s.pending !== sent) continue;
        s.pending = undefined;
        if (typeof html !== 'string' || html === '' || !el.isConnected || !(el instanceof HTMLElement)) continue;
        show(el, html);
        s.written = el.innerHTML;
        s.currency = answer?.currency ?? null;
      }
    }
    if (ok)
      document.dispatchEvent(new CustomEvent(EVENT_RESOLVED, { bubbles: true, detail: { currency: answer.currency } }));
  }

  async function post(ids: string[], currency: string | null): Promise<ConvertAnswer | null> {
    try {
      const res = await fetch(cfg.endpoint, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ currency, product_ids: ids.map(Number) }),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as Partial<ConvertAnswer>;
      if (
        typeof body.currency !== 'string' ||
        !CODE.test(body.currency) ||
        !body.prices ||
        typeof body.prices !== 'object'
      ) {
        throw new Error('unexpected answer');
      }
      return { currency: body.currency, detected: body.detected === true, prices: body.prices };
    } catch (err) {
      console.debug('rova-fx: conversion request failed; base prices kept.', err);
      return null;
    }
  }

  async function send(
    groups: Map<string, Element[]>,
    ids: string[],
    currency: string | null,
  ): Promise<ConvertAnswer | null> {
    const answer = await post(ids, currency);
    if (currency === null && answer && wanted === null) {
      detectedHere = answer.currency;
      // The cookie is written only for a detect request the server answered with detected === true.
      if (answer.detected === true && offered(cfg, answer.currency) === answer.currency)
        writeCookie(cfg, answer.currency);
    }
    apply(groups, ids, currency, answer);
    return answer;
  }

  function run(): void {
    scheduled = false;
    const markers = Array.from(document.querySelectorAll(MARKER));
    const currency = resolveCurrency();
    wanted = currency;
    if (markers.length === 0) return;
    if (currency === cfg.base) {
      restore(markers);
      return;
    }
    const groups = new Map<string, Element[]>();
    for (const el of markers) {
      const id = el.getAttribute('data-rova-fx-product') ?? '';
      if (!ID.test(id)) continue;
      const s = stateOf(el);
      if (s.pending === currency) continue;
      if (s.written !== null && s.currency === currency) continue;
      s.pending = currency;
      const g = groups.get(id);
      if (g) g.push(el);
      else groups.set(id, [el]);
    }
    if (groups.size === 0) return;
    const batches = chunk([...groups.keys()], cfg.batchSize);
    if (currency !== null) {
      for (const b of batches) void send(groups, b, currency);
      return;
    }
    // Detect: the first batch goes alone; the rest use the currency it resolved.
    const [first, ...rest] = batches;
    void send(groups, first ?? [], null).then((answer) => {
      const resolved = answer?.currency ?? null;
      for (const b of rest)
        for (const id of b)
          for (const el of groups.get(id) ?? []) {
            const s = states.get(el);
            if (s && s.pending === null)
              s.pending = resolved && resolved !== cfg.base && wanted === null ? resolved : undefined;
          }
      if (!resolved || resolved === cfg.base || wanted !== null) return;
      wanted = resolved;
      for (const b of rest) void send(groups, b, resolved);
    });
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setTimeout(run, 0);
  }

  new MutationObserver((records) => {
    for (const r of records) {
      // Our own writes replace the children of a marker: never a reason to run again.
      const target = r.target instanceof Element ? r.target : r.target.parentElement;
      if (target?.closest(MARKER)) continue;
      for (const n of Array.from(r.addedNodes)) {
        if (n instanceof Element && (n.matches(MARKER) || n.querySelector(MARKER))) {
          schedule();
          return;
        }
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener(EVENT_CHANGED, schedule);
  window.addEventListener(EVENT_CHANGED, schedule);

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
  return { run };
}

(() => {
  if (typeof fetch !== 'function' || typeof Promise !== 'function' || typeof MutationObserver !== 'function') {
    console.debug('rova-fx: this browser lacks fetch/Promise/MutationObserver; base prices kept.');
    return;
  }
  const cfg = readConfig();
  if (!cfg) return;
  startConverter(cfg);
})();
