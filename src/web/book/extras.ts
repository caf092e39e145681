/**
 * Extras on the check step (issue 36.3): the add-on rules the vehicle offers, each a checkbox or — when its rule allows
 * more than one (child seats) — a quantity stepper. A change asks the API's check again with the chosen extras, so the
 * total and the breakdown shown are always the API's. Names come from the rules (the operator's language).
 */
import { h } from './dom.js';
import type { I18n } from './i18n/index.js';
import type { Check, Chosen, Extra } from './journey.js';

/** A breakdown line's label: the extra's name, with its quantity when more than one. */
export function extraLabel(i: I18n, a: { name: string; quantity?: number }): string {
  return (a.quantity ?? 1) > 1 ? i.t('extraTimes', { name: a.name, n: a.quantity! }) : a.name;
}

/** What one unit costs, per day or per booking, and the most one booking may take. */
function priceText(i: I18n, x: Extra, currency: string): string {
  const price = i.money(x.amount, currency);
  const each = x.charge === 'per_day' ? i.t('extraPerDay', { price }) : i.t('extraPerBooking', { price });
  return x.max_per_day > 1 ? `${each} · ${i.t('extraMax', { n: x.max_per_day })}` : each;
}

/** The check step's extras; `choose` gets the whole new choice. Nothing when the vehicle offers none. */
export function extrasView(
  i: I18n,
  c: Check | null,
  chosen: Chosen,
  busy: boolean,
  choose: (next: Chosen) => void,
): HTMLElement | null {
  const offered = c?.available ? (c.extras ?? []) : [];
  if (!offered.length || !c?.currency) return null;
  const set = (code: string, n: number) => {
    const next = { ...chosen };
    if (n > 0) next[code] = n;
    else delete next[code];
    choose(next);
  };
  const item = (x: Extra) => {
    const n = chosen[x.code] ?? 0;
    const id = `extra-${x.code}`;
    const price = h('span', { class: 'note', id: `${id}-price` }, priceText(i, x, c.currency!));
    if (x.max_per_day <= 1)
      return h(
        'li',
        {},
        h(
          'label',
          { class: 'radio' },
          h('input', {
            type: 'checkbox',
            checked: n > 0,
            'aria-describedby': `${id}-price`,
            'data-f': id,
            on: { change: (e: Event) => set(x.code, (e.target as HTMLInputElement).checked ? 1 : 0) },
          }),
          x.name,
        ),
        price,
      );
    const step = (d: number, label: string, sign: string, off: boolean) =>
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          'aria-label': label,
          'aria-disabled': String(off || busy),
          'data-f': `${id}-${d > 0 ? 'more' : 'less'}`,
          on: { click: () => (off || busy ? undefined : set(x.code, n + d)) },
        },
        sign,
      );
    return h(
      'li',
      {},
      h('span', { id: `${id}-name` }, x.name),
      price,
      h(
        'span',
        { class: 'stepper', role: 'group', 'aria-labelledby': `${id}-name` },
        step(-1, i.t('extraLess', { name: x.name }), '−', n <= 0),
        h('output', { 'data-f': `${id}-qty`, 'aria-live': 'polite' }, String(n)),
        step(1, i.t('extraMore', { name: x.name }), '+', n >= x.max_per_day),
      ),
    );
  };
  return h(
    'fieldset',
    { class: 'extras', 'data-f': 'extras' },
    h('legend', {}, i.t('extras')),
    h('ul', {}, offered.map(item)),
  );
}

/** The extras a booking took, for the confirmation (from the check it was booked with). */
export function extrasTaken(i: I18n, c: Check | null): HTMLElement | null {
  const taken = c?.breakdown?.addons ?? [];
  if (!taken.length || !c?.currency) return null;
  return h(
    'div',
    { 'data-f': 'extras-taken' },
    h('h3', {}, i.t('extras')),
    h(
      'ul',
      {},
      taken.map((a) => h('li', {}, `${extraLabel(i, a)}: ${i.money(a.total, c.currency!)}`)),
    ),
  );
}

/** A booking's extras as its order stored them (the description names the quantity when more than one). */
export function extraLines(
  order: { lines: { kind: string; description: string; amount: number }[] } | null | undefined,
): { description: string; amount: number }[] {
  return (order?.lines ?? []).filter((l) => l.kind === 'addon');
}

export const EXTRAS_CSS = `fieldset.extras{border:1px solid var(--_color-border);border-radius:var(--_radius);padding:.5rem var(--_space);margin:0 0 var(--_space)}
fieldset.extras ul{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.5rem}fieldset.extras li{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem}
fieldset.extras li>.note{flex:1 1 10rem}.stepper{display:inline-flex;align-items:center;gap:.5rem}.stepper button{min-width:2.5rem;padding:.3rem .6rem}.stepper output{min-width:1.5rem;text-align:center;font-weight:700}`;
