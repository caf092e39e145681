/**
 * Currency switcher: fills every `[data-rova-fx-switcher]` element with a button + ARIA listbox of the base and
 * the enabled currencies. A pick writes the visitor cookie and re-prices the page in place (no reload).
 */
import {
  EVENT_CHANGED,
  EVENT_RESOLVED,
  offered,
  readConfig,
  readCookie,
  writeCookie,
  type RovaFxConfig,
  type RovaFxCurrency,
} from './config.js';

let uid = 0;

function label(cfg: RovaFxConfig, c: RovaFxCurrency): DocumentFragment {
  const f = document.createDocumentFragment();
  const o = cfg.switcher;
  if (o.show_flag && c.flag) {
    const flag = document.createElement('span');
    flag.className = 'rova-fx-flag';
    flag.setAttribute('aria-hidden', 'true');
    flag.textContent = c.flag;
    f.append(flag);
  }
  const parts: string[] = [];
  if (o.show_symbol && c.symbol) parts.push(c.symbol);
  if (o.show_code) parts.push(c.code);
  if (o.show_name && c.name) parts.push(c.name);
  if (parts.length === 0) parts.push(c.code);
  const text = document.createElement('span');
  text.className = 'rova-fx-label';
  text.textContent = parts.join(' ');
  f.append(text);
  return f;
}

function current(cfg: RovaFxConfig): string {
  return (
    offered(cfg, readCookie(cfg.cookie.name)) ??
    offered(cfg, new URLSearchParams(location.search).get(cfg.urlParam)) ??
    cfg.base
  );
}

interface SwitcherHandle {
  sync(code: string): void;
}

function mount(host: HTMLElement, cfg: RovaFxConfig, all: SwitcherHandle[]): SwitcherHandle | null {
  if (cfg.currencies.length === 0) return null;
  const n = ++uid;
  const size = ['small', 'medium', 'large'].includes(host.dataset.size ?? '') ? host.dataset.size : cfg.switcher.size;
  host.classList.add('rova-fx-switcher', `rova-fx-size--${size}`);
  host.textContent = '';

  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'rova-fx-selected';
  button.id = `rova-fx-switcher-${n}-button`;
  button.setAttribute('aria-haspopup', 'listbox');
  button.setAttribute('aria-expanded', 'false');
  const list = document.createElement('ul');
  list.className = 'rova-fx-dropdown';
  list.id = `rova-fx-switcher-${n}-list`;
  list.setAttribute('role', 'listbox');
  list.setAttribute('tabindex', '-1');
  list.setAttribute('aria-label', host.getAttribute('aria-label') || 'Currency');
  list.hidden = true;
  button.setAttribute('aria-controls', list.id);
  button.setAttribute('aria-label', `Currency: ${cfg.base}`);

  const options = cfg.currencies.map((c, i) => {
    const li = document.createElement('li');
    li.id = `rova-fx-switcher-${n}-opt-${i}`;
    li.className = 'rova-fx-option';
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', 'false');
    li.dataset.currency = c.code;
    li.append(label(cfg, c));
    list.append(li);
    return li;
  });
  host.append(button, list);

  let active = 0;
  let selected = cfg.base;
  let typed = '';
  let typedAt = 0;

  function setActive(i: number): void {
    active = Math.max(0, Math.min(options.length - 1, i));
    options.forEach((o, j) => o.classList.toggle('rova-fx-focus', j === active));
    const o = options[active];
    if (o) {
      list.setAttribute('aria-activedescendant', o.id);
      o.scrollIntoView?.({ block: 'nearest' });
    }
  }

  function sync(code: string): void {
    selected = code;
    const c = cfg.currencies.find((x) => x.code === code) ?? cfg.currencies[0];
    if (!c) return;
    button.textContent = '';
    button.append(label(cfg, c));
    const arrow = document.createElement('span');
    arrow.className = 'rova-fx-arrow';
    arrow.setAttribute('aria-hidden', 'true');
    arrow.textContent = '▾';
    button.append(arrow);
    button.setAttribute('aria-label', `Currency: ${c.code}${c.name ? ` (${c.name})` : ''}`);
    options.forEach((o) => {
      const on = o.dataset.currency === c.code;
      o.setAttribute('aria-selected', String(on));
      o.classList.toggle('rova-fx-active', on);
    });
  }

  function open(at?: number): void {
    list.hidden = false;
    host.classList.add('rova-fx-open');
    button.setAttribute('aria-expanded', 'true');
    setActive(
      at ??
        Math.max(
          0,
          options.findIndex((o) => o.dataset.currency === selected),
        ),
    );
    list.focus();
  }

  function close(focusButton: boolean): void {
    if (list.hidden) return;
    list.hidden = true;
    host.classList.remove('rova-fx-open');
    button.setAttribute('aria-expanded', 'false');
    list.removeAttribute('aria-activedescendant');
    if (focusButton) button.focus();
  }

  function pick(i: number): void {
    const code = options[i]?.dataset.currency;
    close(true);
    if (!code) return;
    writeCookie(cfg, code);
    for (const h of all) h.sync(code);
    document.dispatchEvent(new CustomEvent(EVENT_CHANGED, { bubbles: true, detail: { currency: code } }));
  }

  button.addEventListener('click', () => (list.hidden ? open() : close(true)));
  button.addEventListener('keydown', (e) => {
    if (['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(e.key)) {
      e.preventDefault();
      const cur = options.findIndex((o) => o.dataset.currency === selected);
      open(e.key === 'ArrowUp' ? Math.max(0, cur - 1) : e.key === 'ArrowDown' && !list.hidden ? cur + 1 : cur);
    }
  });
  list.addEventListener('keydown', (e) => {
    switch (e.key) {
      case 'ArrowDown':
        setActive(active + 1);
        break;
      case 'ArrowUp':
        setActive(active - 1);
        break;
      case 'Home':
        setActive(0);
        break;
      case 'End':
        setActive(options.length - 1);
        break;
      case 'Enter':
      case ' ':
        pick(active);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        close(false);
        return;
      default: {
        if (e.key.length !== 1 || e.ctrlKey || e.metaKey || e.altKey) return;
        const now = Date.now();
        typed = (now - typedAt > 700 ? '' : typed) + e.key.toUpperCase();
        typedAt = now;
        const i = cfg.currencies.findIndex((c) => c.code.startsWith(typed) || c.name.toUpperCase().startsWith(typed));
        if (i >= 0) setActive(i);
        break;
      }
    }
    e.preventDefault();
  });
  list.addEventListener('click', (e) => {
    const li = (e.target as Element).closest('.rova-fx-option');
    const i = options.indexOf(li as HTMLLIElement);
    if (i >= 0) pick(i);
  });
  document.addEventListener('click', (e) => {
    if (!host.contains(e.target as Node)) close(false);
  });
  list.addEventListener('focusout', (e) => {
    if (!host.contains(e.relatedTarget as Node | null)) close(false);
  });

  sync(current(cfg));
  return { sync };
}

(() => {
  const cfg = readConfig();
  if (!cfg) return;
  const all: SwitcherHandle[] = [];
  const init = (): void => {
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-rova-fx-switcher]'))) {
      if (el.dataset.rovaFxReady) continue;
      el.dataset.rovaFxReady = '1';
      const h = mount(el, cfg, all);
      if (h) all.push(h);
    }
  };
  document.addEventListener(EVENT_RESOLVED, (e) => {
    const code = offered(cfg, (e as CustomEvent<{ currency?: string }>).detail?.currency);
    if (code) for (const h of all) h.sync(code);
  });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init, { once: true });
  else init();
})();
