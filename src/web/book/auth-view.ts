/**
 * The inline sign-in / register / forgot / reset form, shared by the journey and account mode. The password lives in
 * the form only. "Forgot password?" and the reset run here, beside the widget's own state machines: they never sign
 * anybody in, so the journey and the account only learn of a sign-in.
 */
import { ApiError, type Api } from './api.js';
import { field, h, heading } from './dom.js';
import type { I18n } from './i18n/index.js';

export type AuthMode = 'signin' | 'register' | 'forgot' | 'reset';

export interface AuthFields {
  mode: AuthMode;
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  phone: string;
  /** The mailed reset token (mode `reset`), from the link's `rova_reset` parameter. */
  token: string;
  /** The server's minimum password length (asked when a new password is typed). */
  minLength: number | null;
  /** What the forgot/reset step did, in words; or why it refused. */
  notice: string;
  error: string;
  busy: boolean;
}

export function newAuth(resetToken: string | null = null): AuthFields {
  return {
    mode: resetToken ? 'reset' : 'signin',
    email: '',
    password: '',
    first_name: '',
    last_name: '',
    phone: '',
    token: resetToken ?? '',
    minLength: null,
    notice: '',
    error: '',
    busy: false,
  };
}

/** Signs in or registers (then signs in) with what the form holds; the password is dropped afterwards. */
export async function submitAuth(api: Api, a: AuthFields): Promise<void> {
  if (a.mode === 'register')
    await api.register({
      email: a.email,
      password: a.password,
      first_name: a.first_name,
      last_name: a.last_name,
      ...(a.phone ? { phone: a.phone } : {}),
    });
  else await api.signIn(a.email, a.password);
  a.password = '';
}

export interface AuthHooks {
  api: Api;
  /** Sign in or register (the caller's state machine runs it). */
  submit: () => void;
  rerender: () => void;
  /** The reset succeeded: the caller drops the token from the address bar. */
  onReset?: () => void;
}

/** Too short for the server's rule: the message that names it, else null. */
function tooShort(i: I18n, a: AuthFields): string | null {
  return a.minLength !== null && a.password.length < a.minLength ? i.t('passwordRule', { n: a.minLength }) : null;
}

async function forgotOrReset(i: I18n, a: AuthFields, hooks: AuthHooks): Promise<void> {
  a.busy = true;
  a.error = '';
  hooks.rerender();
  try {
    if (a.mode === 'forgot') {
      await hooks.api.forgotPassword(a.email);
      a.notice = i.t('resetSent');
    } else {
      await hooks.api.resetPassword(a.token, a.password);
      a.token = '';
      a.notice = i.t('passwordReset');
      hooks.onReset?.();
    }
    a.password = '';
    a.mode = 'signin';
  } catch (err) {
    a.error = err instanceof ApiError ? err.message : i.t('networkError');
  } finally {
    a.busy = false;
    hooks.rerender();
  }
}

/** The heading, the sign-in/register switch and the form (or the forgot / reset form). */
export function authForm(i: I18n, a: AuthFields, busy: boolean, hooks: AuthHooks): (HTMLElement | null)[] {
  const { t } = i;
  const newPassword = a.mode === 'register' || a.mode === 'reset';
  if (newPassword && a.minLength === null)
    void hooks.api.passwordPolicy().then((p) => {
      a.minLength = p.min_length;
      hooks.rerender();
    });
  const input = (
    name: 'email' | 'password' | 'first_name' | 'last_name' | 'phone',
    type: string,
    label: string,
    extra: Record<string, string | boolean> = {},
  ) =>
    field(
      label,
      h('input', {
        name,
        type,
        value: a[name],
        'data-f': `auth-${name}`,
        ...extra,
        on: {
          input: (e: Event) => {
            a[name] = (e.target as HTMLInputElement).value;
          },
        },
      }),
    );
  const go = (mode: AuthMode) => () => {
    a.mode = mode;
    a.error = '';
    if (mode !== 'signin') a.notice = '';
    hooks.rerender();
  };
  const tab = (mode: 'signin' | 'register', label: string) =>
    h(
      'button',
      { type: 'button', 'aria-pressed': String(a.mode === mode), 'data-f': `tab-${mode}`, on: { click: go(mode) } },
      label,
    );
  const passwordField = () =>
    h(
      'div',
      {},
      input('password', 'password', newPassword ? t('newPassword') : t('password'), {
        required: true,
        autocomplete: newPassword ? 'new-password' : 'current-password',
        ...(newPassword ? { 'aria-describedby': 'rova-password-rule' } : {}),
      }),
      newPassword && a.minLength !== null
        ? h('p', { class: 'note', id: 'rova-password-rule' }, t('passwordRule', { n: a.minLength }))
        : null,
    );
  const busyNow = busy || a.busy;
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const short = newPassword ? tooShort(i, a) : null;
    if (short) {
      a.error = short;
      hooks.rerender();
      return;
    }
    a.error = '';
    if (a.mode === 'forgot' || a.mode === 'reset') void forgotOrReset(i, a, hooks);
    else hooks.submit();
  };
  const messages = [
    a.notice ? h('p', { class: 'ok notice', role: 'status', 'data-f': 'auth-notice' }, a.notice) : null,
    a.error ? h('p', { class: 'alert', role: 'alert', 'data-f': 'auth-error' }, a.error) : null,
  ];
  const back = h(
    'button',
    { type: 'button', class: 'secondary', 'data-f': 'auth-back', on: { click: go('signin') } },
    t('backToSignIn'),
  );

  if (a.mode === 'forgot')
    return [
      heading(t('forgotPassword')),
      h('p', { class: 'note' }, t('forgotIntro')),
      ...messages,
      h(
        'form',
        { on: { submit: onSubmit } },
        input('email', 'email', t('email'), { required: true, autocomplete: 'email' }),
        h('button', { type: 'submit', 'data-f': 'auth-forgot', disabled: busyNow }, t('sendResetLink')),
        back,
      ),
    ];
  if (a.mode === 'reset')
    return [
      heading(t('chooseNewPassword')),
      ...messages,
      h(
        'form',
        { on: { submit: onSubmit } },
        passwordField(),
        h('button', { type: 'submit', 'data-f': 'auth-reset', disabled: busyNow }, t('setNewPassword')),
        back,
      ),
    ];

  const reg = a.mode === 'register';
  return [
    heading(reg ? t('register') : t('signIn')),
    h('div', { class: 'tabs' }, tab('signin', t('haveAccount')), tab('register', t('newCustomer'))),
    ...messages,
    h(
      'form',
      { on: { submit: onSubmit } },
      reg ? input('first_name', 'text', t('firstName'), { required: true, autocomplete: 'given-name' }) : null,
      reg ? input('last_name', 'text', t('lastName'), { required: true, autocomplete: 'family-name' }) : null,
      input('email', 'email', t('email'), { required: true, autocomplete: 'email' }),
      passwordField(),
      reg ? input('phone', 'tel', t('phone'), { autocomplete: 'tel' }) : null,
      h('button', { type: 'submit', 'data-f': 'auth-submit', disabled: busyNow }, reg ? t('register') : t('signIn')),
    ),
    reg
      ? null
      : h(
          'p',
          {},
          h(
            'button',
            { type: 'button', class: 'secondary', 'data-f': 'auth-forgot-open', on: { click: go('forgot') } },
            t('forgotPasswordLink'),
          ),
        ),
  ];
}
