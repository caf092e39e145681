/** The inline sign-in / register form, shared by the journey and account mode. The password lives in the form only. */
import type { Api } from './api.js';
import { field, h, heading } from './dom.js';
import type { I18n } from './i18n/index.js';

export interface AuthFields {
  mode: 'signin' | 'register';
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  phone: string;
}

export function newAuth(): AuthFields {
  return { mode: 'signin', email: '', password: '', first_name: '', last_name: '', phone: '' };
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

/** The heading, the sign-in/register switch and the form. */
export function authForm(
  i: I18n,
  a: AuthFields,
  busy: boolean,
  submit: () => void,
  rerender: () => void,
): HTMLElement[] {
  const { t } = i;
  const reg = a.mode === 'register';
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
  const tab = (mode: 'signin' | 'register', label: string) =>
    h(
      'button',
      {
        type: 'button',
        'aria-pressed': String(a.mode === mode),
        'data-f': `tab-${mode}`,
        on: {
          click: () => {
            a.mode = mode;
            rerender();
          },
        },
      },
      label,
    );
  return [
    heading(reg ? t('register') : t('signIn')),
    h('div', { class: 'tabs' }, tab('signin', t('haveAccount')), tab('register', t('newCustomer'))),
    h(
      'form',
      {
        on: {
          submit: (e: Event) => {
            e.preventDefault();
            submit();
          },
        },
      },
      reg ? input('first_name', 'text', t('firstName'), { required: true, autocomplete: 'given-name' }) : null,
      reg ? input('last_name', 'text', t('lastName'), { required: true, autocomplete: 'family-name' }) : null,
      input('email', 'email', t('email'), { required: true, autocomplete: 'email' }),
      input('password', 'password', t('password'), {
        required: true,
        minlength: reg ? '8' : '1',
        autocomplete: reg ? 'new-password' : 'current-password',
      }),
      reg ? input('phone', 'tel', t('phone'), { autocomplete: 'tel' }) : null,
      h('button', { type: 'submit', 'data-f': 'auth-submit', disabled: busy }, reg ? t('register') : t('signIn')),
    ),
  ];
}
