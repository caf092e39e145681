/**
 * Product price widget: `<div data-rova-fx-widget data-rova-fx-product="ID">` shows that product's price in up
 * to 5 currencies (settings.product_widget, or `data-currencies="EUR,GBP"` on the element). Visitor-independent:
 * one POST /convert per currency for all widgets of the page.
 */
import { readConfig, type RovaFxConfig } from './config.js';

const ID = /^[1-9][0-9]*$/;
const MAX = 5;

function codesFor(cfg: RovaFxConfig, el: HTMLElement): string[] {
  const attr = el.dataset.currencies;
  if (!attr && !cfg.widget.enabled) return [];
  const wanted = attr ? attr.split(',') : cfg.widget.currencies;
  const out: string[] = [];
  for (const raw of wanted) {
    const code = raw.trim().toUpperCase();
    if (code === cfg.base || out.includes(code) || !cfg.currencies.some((c) => c.code === code)) continue;
    out.push(code);
    if (out.length === MAX) break;
  }
  return out;
}

async function prices(cfg: RovaFxConfig, currency: string, ids: number[]): Promise<Record<string, unknown>> {
  const all: Record<string, unknown> = {};
  for (let i = 0; i < ids.length; i += cfg.batchSize) {
    try {
      const res = await fetch(cfg.endpoint, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ currency, product_ids: ids.slice(i, i + cfg.batchSize) }),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as { currency?: unknown; prices?: Record<string, unknown> };
      // The server answers in the base when it does not offer the currency: leave it out.
      if (body.currency !== currency || !body.prices) continue;
      Object.assign(all, body.prices);
    } catch (err) {
      console.debug('rova-fx: widget conversion failed.', err);
    }
  }
  return all;
}

function render(
  cfg: RovaFxConfig,
  el: HTMLElement,
  id: string,
  codes: string[],
  byCode: Map<string, Record<string, unknown>>,
): void {
  const showFlags = el.dataset.showFlags ? el.dataset.showFlags !== 'false' : cfg.widget.show_flags;
  const list = document.createElement('ul');
  list.className = 'rova-fx-product-prices';
  for (const code of codes) {
    const html = byCode.get(code)?.[id];
    if (typeof html !== 'string' || html === '') continue;
    const c = cfg.currencies.find((x) => x.code === code);
    const li = document.createElement('li');
    li.className = 'rova-fx-product-price';
    li.dataset.currency = code;
    if (showFlags && c?.flag) {
      const flag = document.createElement('span');
      flag.className = 'rova-fx-flag';
      flag.setAttribute('aria-hidden', 'true');
      flag.textContent = c.flag;
      li.append(flag);
    }
    const name = document.createElement('span');
    name.className = 'rova-fx-code';
    name.textContent = code;
    const amount = document.createElement('span');
    amount.className = 'rova-fx-amount';
    amount.innerHTML = html;
    li.append(name, amount);
    list.append(li);
  }
  el.textContent = '';
  if (list.childElementCount > 0) el.append(list);
  el.classList.add('rova-fx-widget-ready');
}

export async function renderWidgets(cfg: RovaFxConfig): Promise<void> {
  const els = Array.from(document.querySelectorAll<HTMLElement>('[data-rova-fx-widget]')).filter(
    (el) => !el.classList.contains('rova-fx-widget-ready') && ID.test(el.dataset.rovaFxProduct ?? ''),
  );
  if (els.length === 0) return;
  const need = new Map<string, Set<number>>();
  const plan = els.map((el) => {
    const codes = codesFor(cfg, el);
    const id = el.dataset.rovaFxProduct ?? '';
    for (const c of codes) {
      const s = need.get(c) ?? new Set<number>();
      s.add(Number(id));
      need.set(c, s);
    }
    return { el, id, codes };
  });
  const byCode = new Map<string, Record<string, unknown>>();
  await Promise.all([...need].map(async ([code, ids]) => byCode.set(code, await prices(cfg, code, [...ids]))));
  for (const p of plan) render(cfg, p.el, p.id, p.codes, byCode);
}

(() => {
  if (typeof fetch !== 'function') return;
  const cfg = readConfig();
  if (!cfg) return;
  const go = (): void => void renderWidgets(cfg);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', go, { once: true });
  else go();
})();
