/**
 * Host-page events: a bubbling, composed CustomEvent on the mount element; inside an iframe the same event is also
 * posted to the parent window as `{ source: 'rova-book', type, detail }` — only when the script tag names the
 * parent's origin (`data-parent-origin="https://shop.example"`), which is the postMessage targetOrigin. Never '*':
 * a detail may carry a booking's reference and amounts, which only the named parent may read.
 */
let parentOrigin: string | null = null;

/** The parent origin from the script tag's data-parent-origin (an origin exactly: scheme://host[:port]); else none. */
export function setParentOrigin(value: string | undefined): void {
  parentOrigin = null;
  if (!value) return;
  try {
    const o = new URL(value).origin;
    if (o !== 'null' && o === value.replace(/\/+$/, '')) parentOrigin = o;
  } catch {
    parentOrigin = null;
  }
}

export function emit(target: HTMLElement, type: string, detail: object): void {
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  if (parentOrigin && window.parent !== window)
    window.parent.postMessage({ source: 'rova-book', type, detail }, parentOrigin);
}
