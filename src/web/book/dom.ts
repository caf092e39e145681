/** A tiny element builder: h('button', { type: 'button', on: { click } }, 'Text'). */
type Child = Node | string | number | null | false | undefined;
export interface Props {
  [attr: string]: string | number | boolean | null | undefined | Record<string, (e: Event) => void>;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...kids: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'on' && v && typeof v === 'object') {
      for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    } else if (v === true) el.setAttribute(k, '');
    else if (v !== false && v !== null && v !== undefined && typeof v !== 'object') el.setAttribute(k, String(v));
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === false || kid === undefined) continue;
    el.append(typeof kid === 'object' ? kid : String(kid));
  }
  return el;
}

/** A step's heading: focused (tabindex -1) when the step changes, so screen readers hear where they are. */
export function heading(text: string): HTMLElement {
  return h('h2', { tabindex: -1 }, text);
}

/** A labelled control (the label wraps it: the control's accessible name is the label's text). */
export function field(label: string, control: HTMLElement): HTMLElement {
  return h('label', {}, label, control);
}
