/**
 * "Book as a guest" beside the journey's sign-in: name and e-mail → a 6-digit code by mail → the code → the journey
 * goes on to the review as if signed in (the booking is made with the guest pass, api.ts). No account is made.
 */
import { ApiError, type Api } from './api.js';
import { field, h } from './dom.js';
import type { I18n } from './i18n/index.js';

export interface GuestFields {
  name: string;
  email: string;
  code: string;
  /** Set once the code was sent: the form asks for the code. */
  verificationId: number | null;
  busy: boolean;
  notice: string;
  error: string;
}

export function newGuest(): GuestFields {
  return { name: '', email: '', code: '', verificationId: null, busy: false, notice: '', error: '' };
}

export interface GuestHooks {
  api: Api;
  rerender: () => void;
  /** The code was right: the journey continues to the review. */
  verified: () => void;
}

async function step(i: I18n, g: GuestFields, hooks: GuestHooks): Promise<void> {
  if (g.busy) return;
  g.busy = true;
  g.error = '';
  hooks.rerender();
  try {
    if (g.verificationId === null) {
      g.verificationId = await hooks.api.guestCode(g.email.trim(), g.name.trim());
      g.notice = i.t('codeSent', { email: g.email.trim() });
    } else {
      await hooks.api.guestConfirm(g.verificationId, g.code.trim());
      g.notice = i.t('guestVerified', { email: g.email.trim() });
      g.busy = false;
      hooks.verified();
      return;
    }
  } catch (err) {
    g.error = err instanceof ApiError ? err.message : i.t('networkError');
    // an expired or spent code: ask for a new one
    if (err instanceof ApiError && err.status === 429 && g.verificationId !== null) g.verificationId = null;
  }
  g.busy = false;
  hooks.rerender();
}

/** The guest form: name and e-mail, then the code. */
export function guestForm(i: I18n, g: GuestFields, hooks: GuestHooks): HTMLElement {
  const { t } = i;
  const input = (key: 'name' | 'email' | 'code', label: string, extra: Record<string, string | boolean | number>) =>
    field(
      label,
      h('input', {
        name: `guest-${key}`,
        value: g[key],
        'data-f': `guest-${key}`,
        required: true,
        ...extra,
        on: {
          input: (e: Event) => {
            g[key] = (e.target as HTMLInputElement).value;
          },
        },
      }),
    );
  const asking = g.verificationId === null;
  return h(
    'section',
    { class: 'guest', 'aria-labelledby': 'rova-guest-title' },
    h('h3', { id: 'rova-guest-title' }, t('guestTitle')),
    h('p', { class: 'note' }, t('guestIntro')),
    g.notice ? h('p', { class: 'ok notice', role: 'status', 'data-f': 'guest-notice' }, g.notice) : null,
    g.error ? h('p', { class: 'alert', role: 'alert', 'data-f': 'guest-error' }, g.error) : null,
    h(
      'form',
      {
        class: 'stack',
        on: {
          submit: (e: Event) => {
            e.preventDefault();
            void step(i, g, hooks);
          },
        },
      },
      asking
        ? [
            input('name', t('guestName'), { autocomplete: 'name', maxlength: 200 }),
            input('email', t('email'), { type: 'email', autocomplete: 'email', maxlength: 200 }),
          ]
        : input('code', t('codeLabel'), {
            inputmode: 'numeric',
            autocomplete: 'one-time-code',
            pattern: '[0-9]{6}',
            maxlength: 6,
          }),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'submit', 'data-f': asking ? 'guest-send' : 'guest-confirm', 'aria-disabled': String(g.busy) },
          asking ? t('sendCode') : t('confirmCode'),
        ),
      ),
    ),
  );
}
