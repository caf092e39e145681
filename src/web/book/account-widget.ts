/**
 * Account mode (<div data-rova-book="account">): sign in (the journey's inline form; token pair in memory only),
 * my bookings (upcoming / past), a booking's detail, cancel with the fee shown before confirming, messages to the
 * operator (list, thread, reply, new), profile and password. Renders `AccountState` (account.ts).
 */
import { newAttemptKey } from './attempt-key.js';
import { ApiError, signedIn, type Api, type Location, type PaymentConfig } from './api.js';
import {
  initialAccount,
  reduceAccount,
  splitBookings,
  type AccountAction,
  type AccountState,
  type AccountTab,
  type MyBooking,
  type MyBookingDetail,
} from './account.js';
import { authForm, newAuth, submitAuth, type AuthFields } from './auth-view.js';
import { changeable, changeScreen, type ChangeResult, type ChangeScreen } from './change-dates.js';
import { field, h, heading } from './dom.js';
import { emit } from './events.js';
import { extraLines } from './extras.js';
import { i18n, LANGUAGES, type I18n, type Lang } from './i18n/index.js';
import { placesView } from './places.js';
import { driverSummary, type BookingDriver } from './driver.js';
import { paymentElement } from './stripe.js';

export interface AccountContext {
  api: Api;
  i18n: I18n;
  /** How the store takes payment: "pay the rest" by card is offered when `stripe` is set. */
  payments?: () => Promise<PaymentConfig | null>;
  /** The token of a password-reset link the page was opened with (`?rova_reset=`): the reset form comes first. */
  resetToken?: string | null;
  /** The reset is done: drop the token from the address bar. */
  onReset?: () => void;
  /** A booking to open once the bookings are loaded: its reference (`rova_booking`, the link of a booking mail). */
  open?: string;
  /** The store's locations: a booking shows where it is picked up and returned. */
  locations?: Promise<Location[]>;
  /** A guest's "manage my booking" link (`?rova_manage=`, api: ManageApi): that booking only, no tabs, no sign-in. */
  manage?: boolean;
}

/** The profile form's own fields (the address is shown, not edited). */
type ProfileField = 'first_name' | 'last_name' | 'phone';

export class AccountWidget {
  state: AccountState;
  private readonly view: HTMLElement;
  private readonly live: HTMLElement;
  private readonly alert: HTMLElement;
  private lastStep: string | null = null;
  private shown = false;
  private auth: AuthFields;
  /** The server's minimum password length, asked when the profile (with its password change) is first shown. */
  private minPassword: number | null = null;
  private draft = { subject: '', message: '', reply: '' };
  private pw = { current: '', next: '' };
  /**
   * What the customer typed in the profile form and has not saved: every render (the password rule arriving, a
   * refetch of the profile) draws the form again, and must not put back the stored values over their typing.
   */
  private profileDraft: Partial<Record<ProfileField, string>> = {};
  private payments: PaymentConfig | null = null;
  private locations: Location[] = [];
  /** Each opened booking's driver, flight and terms (driver.ts). */
  private readonly drivers = new Map<number, BookingDriver | null>();
  /** The mounted Payment Element of the `pay` step. */
  private card: Awaited<ReturnType<typeof paymentElement>> | null = null;
  /** `ctx.open` until the first bookings list (after signing in, when the link was opened signed out). */
  private toOpen: string | undefined;
  /** The "Change dates" screen, shown in place of the booking it changes (change-dates.ts). */
  private change: ChangeScreen | null = null;

  constructor(
    private readonly target: HTMLElement,
    readonly container: HTMLElement,
    private readonly ctx: AccountContext,
  ) {
    const { t } = ctx.i18n;
    this.toOpen = ctx.open;
    this.state = initialAccount(ctx.manage === true || signedIn());
    this.auth = newAuth(ctx.resetToken ?? null);
    this.view = h('div', { class: 'view' });
    this.live = h('p', { class: 'sr', role: 'status', 'aria-live': 'polite' });
    this.alert = h('div', { class: 'alert', role: 'alert' });
    container.append(
      h(
        'section',
        { class: 'root', part: 'root', 'aria-label': t('account'), lang: ctx.i18n.lang },
        this.view,
        this.live,
        this.alert,
      ),
    );
    this.render();
    void ctx.payments?.().then((c) => {
      this.payments = c;
      if (c?.stripe && this.state.step === 'booking') this.render();
    });
    ctx.locations?.then(
      (l) => {
        this.locations = l;
        if (this.state.step === 'booking') this.render();
      },
      () => undefined, // the booking is shown without its places
    );
    emit(target, 'rova:ready', { mode: 'account' });
    if (this.state.signedIn) void this.loadBookings();
  }

  private dispatch(a: AccountAction): AccountState {
    const before = this.state;
    this.state = reduceAccount(this.state, a);
    if (this.state !== before) this.render();
    return this.state;
  }

  private fail(err: unknown): void {
    const { t } = this.ctx.i18n;
    if (err instanceof ApiError && err.status === 401 && !signedIn()) {
      this.dispatch({ type: 'signed-out', message: t('sessionEnded') });
      this.alert.textContent = t('sessionEnded');
      return;
    }
    const message = err instanceof ApiError ? err.message : t('networkError');
    this.dispatch({ type: 'failed', message });
    this.alert.textContent = t('error', { message });
    emit(this.target, 'rova:error', { message, status: err instanceof ApiError ? err.status : 0 });
  }

  /** Starts a write: false while another runs (a double click sends one request). */
  private begin(): boolean {
    if (this.state.busy) return false;
    this.dispatch({ type: 'loading' });
    return true;
  }

  /** Runs one API step: its errors become the alert (or the sign-in when the session is over). */
  private async run(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.fail(err);
    }
  }

  // ── actions that call the API ─────────────────────────────────────────────

  private async signIn(): Promise<void> {
    if (!this.begin()) return;
    await this.run(async () => {
      await submitAuth(this.ctx.api, this.auth);
      this.dispatch({ type: 'signed-in' });
      this.live.textContent = this.ctx.i18n.t('signedInAs');
      await this.loadBookings();
    });
  }

  private signOut(): void {
    void this.ctx.api.signOut();
    this.dispatch({ type: 'signed-out' });
  }

  private loadBookings(): Promise<void> {
    return this.run(async () => {
      const items = await this.ctx.api.myBookings();
      this.dispatch({ type: 'bookings', items });
      const ref = this.toOpen;
      this.toOpen = undefined;
      // the manage page's one booking; a mail's link to a booking past the list's first page asks for it by reference
      const linked = this.ctx.manage
        ? items[0]
        : ref === undefined
          ? undefined
          : (items.find((b) => b.reference === ref) ?? (await this.ctx.api.myBookings(ref))[0]);
      if (linked) this.openBooking(linked.id);
    });
  }

  private tab(tab: AccountTab): void {
    this.dispatch({ type: 'tab', tab });
    const api = this.ctx.api;
    if (tab === 'bookings') void this.loadBookings();
    else if (tab === 'messages')
      void this.run(async () => void this.dispatch({ type: 'threads', items: await api.threads() }));
    else {
      this.profileDraft = {};
      void this.run(async () => {
        this.dispatch({ type: 'profile', profile: await api.profile() });
      });
    }
  }

  private openBooking(id: number): void {
    if (this.dispatch({ type: 'open-booking' }).step !== 'booking') return;
    void this.run(async () => {
      const booking = await this.ctx.api.myBooking(id);
      this.drivers.set(id, await this.ctx.api.myBookingDriver(id).catch(() => null));
      this.dispatch({ type: 'booking', booking });
    });
  }

  private async confirmCancel(): Promise<void> {
    const b = this.state.booking;
    if (!b || this.state.step !== 'cancel' || !this.begin()) return;
    const { t, money } = this.ctx.i18n;
    await this.run(async () => {
      const r = await this.ctx.api.cancel(b.id);
      const booking = await this.ctx.api.myBooking(b.id);
      const notice = t('cancelledNotice', { fee: money(r.fee, r.currency), refund: money(r.refund, r.currency) });
      this.dispatch({ type: 'cancelled', booking, result: r, notice });
      this.live.textContent = notice;
      emit(this.target, 'rova:cancelled', {
        id: b.id,
        reference: b.reference,
        fee: r.fee,
        refund: r.refund,
        currency: r.currency,
      });
    });
  }

  /** The Idempotency-Key of "pay the rest" for one booking and amount due (`of`). */
  private dueAttempt: { of: string; key: string } | null = null;

  /** "Pay the rest" by card: the intent of the amount due, its Payment Element mounted for the `pay` step. */
  private async payDue(): Promise<void> {
    const b = this.state.booking;
    const stripe = this.payments?.stripe;
    const before = this.state;
    if (!b || !stripe || this.dispatch({ type: 'pay-due' }) === before) return; // not payable, or a second click
    await this.run(async () => {
      // one key per booking and amount: a second try after a lost answer gets the same intent, a new amount a new one
      const attempt = `${b.id}:${b.balance.due}`;
      if (this.dueAttempt?.of !== attempt) this.dueAttempt = { of: attempt, key: newAttemptKey() };
      const due = await this.ctx.api.payDue(b.id, 'stripe', this.dueAttempt.key);
      if (!due.client_secret) throw new Error('no client secret');
      const root = this.container.getRootNode();
      const host = root instanceof ShadowRoot ? root.host : this.target;
      this.card?.remove();
      this.card = await paymentElement(stripe.js_url, stripe.publishable_key, due.client_secret, host);
      this.dispatch({ type: 'pay-ready', due });
    });
  }

  /** Confirms the card payment, then waits (up to 30 s) until the webhook has settled the booking as paid. */
  private async confirmDue(): Promise<void> {
    const b = this.state.booking;
    const due = this.state.due;
    if (!b || !due || !this.card || this.state.step !== 'pay' || this.state.busy) return;
    this.dispatch({ type: 'paying' });
    const { t, money } = this.ctx.i18n;
    this.live.textContent = t('paying');
    await this.run(async () => {
      const refused = await this.card!.confirm();
      if (refused) {
        this.dispatch({ type: 'failed', message: refused });
        this.alert.textContent = t('error', { message: refused });
        emit(this.target, 'rova:error', { message: refused, status: 402 });
        return;
      }
      const cents = (x: number) => Math.round(x * 100);
      for (let i = 0; i < 40; i++) {
        const now = await this.ctx.api.myBooking(b.id);
        // settled: nothing due any more, or (a deposit paid by card) the payment counted with a rest still to come
        if (now.balance.due === 0 || cents(now.balance.paid) >= cents(b.balance.paid) + cents(due.amount)) {
          this.dropCard();
          // paid: a later amount due, even of the same size, is a new payment with a key of its own
          this.dueAttempt = null;
          const notice = t(now.balance.due === 0 ? 'restPaid' : 'paymentReceived', {
            amount: money(due.amount, due.currency),
          });
          this.dispatch({ type: 'paid-due', booking: now, notice });
          this.live.textContent = notice;
          emit(this.target, 'rova:paid', {
            id: b.id,
            reference: b.reference,
            total: due.amount,
            currency: due.currency,
          });
          return;
        }
        await new Promise((r) => setTimeout(r, 750));
      }
      this.dispatch({ type: 'failed', message: t('payPending') });
      this.alert.textContent = t('payPending');
    });
  }

  private openChange(b: MyBookingDetail): void {
    this.change = changeScreen({
      api: this.ctx.api,
      i18n: this.ctx.i18n,
      booking: b,
      onClose: () => this.closeChange(),
      onChanged: (r) => void this.changed(b.id, r),
    });
    this.render();
    this.change.el.querySelector('h2')?.focus();
  }

  private closeChange(): void {
    this.change = null;
    this.render();
    this.view.querySelector('h2')?.focus();
  }

  /** Changed: the booking again with what the change did; a difference due is paid by card at once when offered. */
  private async changed(id: number, r: ChangeResult): Promise<void> {
    const { t, money } = this.ctx.i18n;
    await this.run(async () => {
      const booking = await this.ctx.api.myBooking(id);
      this.change = null;
      const notice =
        r.due > 0
          ? t('changedDue', { amount: money(r.due, r.currency) })
          : r.refund > 0
            ? t('changedRefund', { amount: money(r.refund, r.currency) })
            : t('changedSame');
      this.dispatch({ type: 'changed', booking, notice });
      this.live.textContent = notice;
      emit(this.target, 'rova:changed', {
        id,
        reference: booking.reference,
        total: r.total,
        due: r.due,
        refund: r.refund,
      });
      if (r.due > 0 && this.payments?.stripe) await this.payDue();
    });
  }

  private dropCard(): void {
    this.card?.remove();
    this.card = null;
  }

  private openThread(id: number): void {
    if (this.dispatch({ type: 'open-thread' }).step !== 'thread') return;
    void this.run(async () => void this.dispatch({ type: 'thread', thread: await this.ctx.api.thread(id) }));
  }

  private async send(): Promise<void> {
    const d = this.draft;
    const about = this.state.about;
    if (!this.begin()) return;
    await this.run(async () => {
      const thread = await this.ctx.api.startThread({
        subject: d.subject,
        message: d.message,
        ...(about ? { booking_id: about } : {}),
      });
      d.subject = '';
      d.message = '';
      // a manage link has no inbox: back to its booking, the store answers by e-mail
      if (this.ctx.manage && about)
        this.dispatch({
          type: 'booking',
          booking: await this.ctx.api.myBooking(about),
          notice: this.ctx.i18n.t('sent'),
        });
      else this.dispatch({ type: 'thread', thread, notice: this.ctx.i18n.t('sent') });
      this.live.textContent = this.ctx.i18n.t('sent');
    });
  }

  private async reply(): Promise<void> {
    const th = this.state.thread;
    if (!th || !this.begin()) return;
    await this.run(async () => {
      await this.ctx.api.reply(th.thread.id, this.draft.reply);
      this.draft.reply = '';
      this.dispatch({
        type: 'thread',
        thread: await this.ctx.api.thread(th.thread.id),
        notice: this.ctx.i18n.t('sent'),
      });
      this.live.textContent = this.ctx.i18n.t('sent');
    });
  }

  private async saveProfile(form: HTMLFormElement): Promise<void> {
    const f = new FormData(form);
    const str = (k: string) => String(f.get(k) ?? '');
    if (!this.begin()) return;
    await this.run(async () => {
      const profile = await this.ctx.api.saveProfile({
        first_name: str('first_name'),
        last_name: str('last_name'),
        phone: str('phone'),
      });
      this.profileDraft = {};
      this.dispatch({ type: 'profile', profile, notice: this.ctx.i18n.t('saved') });
      this.live.textContent = this.ctx.i18n.t('saved');
    });
  }

  private async changePassword(): Promise<void> {
    const profile = this.state.profile;
    const min = this.minPassword;
    if (profile && min !== null && this.pw.next.length < min) {
      const message = this.ctx.i18n.t('passwordRule', { n: min });
      this.dispatch({ type: 'failed', message });
      this.alert.textContent = this.ctx.i18n.t('error', { message });
      return;
    }
    if (!profile || !this.begin()) return;
    const { current, next } = this.pw;
    this.pw = { current: '', next: '' };
    await this.run(async () => {
      await this.ctx.api.changePassword(profile.email, current, next);
      this.dispatch({ type: 'profile', profile, notice: this.ctx.i18n.t('passwordChanged') });
      this.live.textContent = this.ctx.i18n.t('passwordChanged');
    });
  }

  // ── rendering ─────────────────────────────────────────────────────────────

  render(): void {
    const s = this.state;
    const root = this.container.getRootNode();
    const active = root instanceof ShadowRoot ? root.activeElement : null;
    const focusKey = active instanceof HTMLElement ? active.dataset.f : undefined;
    if (!s.error) this.alert.textContent = '';
    const stepKey = `${s.step}:${s.busy && !s.notice ? 'busy' : 'ready'}`;
    const stepChanged = s.step !== this.lastStep?.split(':')[0];
    this.lastStep = stepKey;
    if (s.step !== 'pay' && this.card) this.dropCard();
    const body = this.body(s);
    this.view.replaceChildren(body, this.languageSwitch());
    if (stepChanged && this.shown) body.querySelector<HTMLElement>('h2')?.focus();
    else if (focusKey) this.view.querySelector<HTMLElement>(`[data-f="${focusKey}"]`)?.focus();
    this.shown = true;
  }

  /** Below every step: the visitor's language, as in the booking widget. */
  private languageSwitch(): HTMLElement {
    const { t, lang } = this.ctx.i18n;
    return h(
      'div',
      { class: 'lang-switch' },
      field(
        t('language'),
        h(
          'select',
          {
            name: 'lang',
            'data-f': 'lang',
            on: { change: (e: Event) => this.switchLanguage((e.target as HTMLSelectElement).value as Lang) },
          },
          LANGUAGES.map(([code, name]) => h('option', { value: code, lang: code, selected: lang === code }, name)),
        ),
      ),
    );
  }

  /** Every text, date and amount follows the choice at once; the page hears `rova:language`. */
  private switchLanguage(lang: Lang): void {
    this.ctx.i18n = i18n(lang);
    const root = this.container.querySelector('section.root');
    root?.setAttribute('lang', lang);
    root?.setAttribute('aria-label', this.ctx.i18n.t('account'));
    this.render();
    emit(this.target, 'rova:language', { lang });
  }

  private body(s: AccountState): HTMLElement {
    if (s.step === 'signin') {
      const { t } = this.ctx.i18n;
      return h(
        'div',
        {},
        authForm(this.ctx.i18n, this.auth, s.busy, {
          api: this.ctx.api,
          submit: () => void this.signIn(),
          rerender: () => this.render(),
          onReset: () => this.ctx.onReset?.(),
        }),
        h('p', { class: 'note' }, t('signInAccount')),
      );
    }
    return h('div', {}, this.ctx.manage ? null : this.nav(s), this.step(s));
  }

  private nav(s: AccountState): HTMLElement {
    const { t } = this.ctx.i18n;
    const current: AccountTab =
      s.step === 'messages' || s.step === 'thread' || s.step === 'compose'
        ? 'messages'
        : s.step === 'profile'
          ? 'profile'
          : 'bookings';
    const tab = (name: AccountTab, label: string) =>
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          'data-f': `nav-${name}`,
          'aria-current': current === name ? 'page' : null,
          on: { click: () => this.tab(name) },
        },
        label,
      );
    return h(
      'nav',
      { class: 'tabs', 'aria-label': t('account') },
      tab('bookings', t('myBookings')),
      tab('messages', t('messages')),
      tab('profile', t('profile')),
      h(
        'button',
        { type: 'button', class: 'secondary', 'data-f': 'sign-out', on: { click: () => this.signOut() } },
        t('signOut'),
      ),
    );
  }

  private step(s: AccountState): HTMLElement {
    switch (s.step) {
      case 'bookings':
        return this.bookingsView(s);
      case 'booking':
        return this.change && s.booking ? this.change.el : this.bookingView(s);
      case 'cancel':
        return this.cancelView(s);
      case 'pay':
        return this.payView(s);
      case 'messages':
        return this.messagesView(s);
      case 'thread':
        return this.threadView(s);
      case 'compose':
        return this.composeView(s);
      default:
        return this.profileView(s);
    }
  }

  private back(): HTMLElement {
    return h(
      'button',
      { type: 'button', class: 'secondary', 'data-f': 'back', on: { click: () => this.goBack() } },
      this.ctx.i18n.t('back'),
    );
  }

  private goBack(): void {
    if (this.ctx.manage && this.state.step === 'compose' && this.state.booking)
      return this.openBooking(this.state.booking.id);
    const s = this.dispatch({ type: 'back' });
    if (!s.busy) return;
    if (s.step === 'bookings') void this.loadBookings();
    else if (s.step === 'messages')
      void this.run(async () => void this.dispatch({ type: 'threads', items: await this.ctx.api.threads() }));
  }

  private notice(s: AccountState): HTMLElement | null {
    return s.notice ? h('p', { class: 'ok notice' }, s.notice) : null;
  }

  private loading(): HTMLElement {
    return h('p', {}, this.ctx.i18n.t('loading'));
  }

  /**
   * Pick-up to return as the store's clock reads them (a rental desk works on its own clock), the store's zone named
   * only when the visitor's clock reads otherwise.
   */
  private period(b: MyBooking): string {
    const { t, date, zone } = this.ctx.i18n;
    const named = zone(b.timezone, b.pickup_at) ?? zone(b.timezone, b.return_at);
    const span = t('period', { from: date(b.pickup_date, b.pickup_time), to: date(b.return_date, b.return_time) });
    return named ? `${span} (${named})` : span;
  }

  private bookingsView(s: AccountState): HTMLElement {
    const { t, money, status } = this.ctx.i18n;
    if (!s.bookings) return h('div', {}, heading(t('myBookings')), this.loading());
    const { upcoming, past } = splitBookings(s.bookings, Date.now());
    const list = (title: string, cls: string, items: MyBooking[]) =>
      h(
        'section',
        { class: cls, 'aria-label': title },
        h('h3', {}, title),
        items.length
          ? h(
              'ul',
              { class: 'cards' },
              items.map((b) =>
                h(
                  'li',
                  { class: 'card', 'data-booking': b.id },
                  h('h4', {}, b.vehicle_name ?? b.reference),
                  h('p', { class: 'meta' }, `${b.reference} · ${status(b.status)}`),
                  h('p', { class: 'meta' }, this.period(b)),
                  h('p', { class: 'price' }, money(b.total, b.currency)),
                  h(
                    'button',
                    {
                      type: 'button',
                      class: 'secondary',
                      'data-f': `booking-${b.id}`,
                      on: { click: () => this.openBooking(b.id) },
                    },
                    t('viewBooking', { ref: b.reference }),
                  ),
                ),
              ),
            )
          : h('p', { class: 'note' }, t('noBookings')),
      );
    return h(
      'div',
      {},
      heading(t('myBookings')),
      this.notice(s),
      list(t('upcoming'), 'upcoming', upcoming),
      list(t('past'), 'past', past),
    );
  }

  /** Where the booking is picked up and returned (no hours line: the account shows instants, not the store's days). */
  private places(b: { pickup_location_id: number | null; return_location_id: number | null }): HTMLElement | null {
    const byId = (id: number | null) => (id === null ? undefined : this.locations.find((l) => l.id === id));
    const pick = byId(b.pickup_location_id);
    return pick ? placesView(this.ctx.i18n, pick, byId(b.return_location_id) ?? pick) : null;
  }

  private bookingView(s: AccountState): HTMLElement {
    const { t, money, status, when } = this.ctx.i18n;
    const b = s.booking;
    if (!b) return h('div', {}, heading(t('bookingTitle', { ref: '' }).trim()), this.loading());
    const c = b.cancellation;
    const due = b.balance.due;
    // a reservation paid by card before the desk or the bank brings its payment: "pay now", not "pay the rest"
    const unpaid = b.payment_status === 'unpaid';
    const row = (label: string, value: string) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, value));
    return h(
      'div',
      {},
      heading(t('bookingTitle', { ref: b.reference })),
      this.notice(s),
      h(
        'table',
        { class: 'breakdown' },
        h(
          'tbody',
          {},
          b.vehicle_name ? row(t('vehicle'), b.vehicle_name) : null,
          row(t('dates'), this.period(b)),
          row(t('status'), status(b.status)),
          row(t('payment'), status(b.payment_status)),
          ['pending_payment', 'pending'].includes(b.status) && b.payment_status === 'unpaid'
            ? row(t('payByLabel'), b.payment_deadline ? when(b.payment_deadline) : t('atPickup'))
            : null,
          extraLines(b.order).map((l) => row(l.description, money(l.amount, b.currency))),
          row(t('total'), money(b.total, b.currency)),
          due > 0 && b.balance.paid > 0 ? row(t('paidSoFar'), money(b.balance.paid, b.balance.currency)) : null,
          due > 0
            ? h(
                'tr',
                { class: 'due' },
                h('th', { scope: 'row' }, t('amountDue')),
                h('td', {}, money(due, b.balance.currency)),
              )
            : null,
        ),
      ),
      this.places(b),
      driverSummary(this.ctx.i18n, this.drivers.get(b.id)),
      due > 0 && b.balance.instructions
        ? h(
            'p',
            { class: 'note', 'data-instructions': '' },
            t(unpaid ? 'payOfflineHow' : 'payRestOffline', { instructions: b.balance.instructions }),
          )
        : due > 0 && b.payment_status === 'deposit_paid'
          ? h(
              'p',
              { class: 'note', 'data-rest': '' },
              t(this.payments?.stripe ? 'restAtPickupOrCard' : 'restAtPickup', {
                amount: money(due, b.balance.currency),
              }),
            )
          : null,
      c.cancellable
        ? h(
            'p',
            { class: 'note', 'data-quote': '' },
            c.free
              ? t('freeUntil', { date: when(c.free_cancellation_until) })
              : t('feeNow', { fee: money(c.fee, c.currency), refund: money(c.refund, c.currency) }),
          )
        : s.cancelled
          ? null
          : h('p', { class: 'note' }, t('notCancellable')),
      h(
        'div',
        { class: 'actions' },
        this.back(),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'data-f': 'message-booking',
            on: { click: () => this.dispatch({ type: 'compose', about: b.id }) },
          },
          t('messageAbout'),
        ),
        due > 0 && this.payments?.stripe
          ? h(
              'button',
              {
                type: 'button',
                'data-f': 'pay-due',
                'aria-disabled': String(s.busy),
                on: { click: () => void this.payDue() },
              },
              t(unpaid ? 'payNowByCard' : 'payRest', { amount: money(due, b.balance.currency) }),
            )
          : null,
        changeable(b)
          ? h(
              'button',
              { type: 'button', class: 'secondary', 'data-f': 'change-dates', on: { click: () => this.openChange(b) } },
              t('changeDates'),
            )
          : null,
        c.cancellable
          ? h(
              'button',
              { type: 'button', 'data-f': 'cancel', on: { click: () => this.dispatch({ type: 'ask-cancel' }) } },
              t('cancelBooking'),
            )
          : null,
      ),
    );
  }

  private payView(s: AccountState): HTMLElement {
    const { t, money } = this.ctx.i18n;
    const b = s.booking!;
    const due = s.due!;
    return h(
      'div',
      {},
      heading(t(b.payment_status === 'unpaid' ? 'payNowTitle' : 'payRestTitle', { ref: b.reference })),
      h(
        'table',
        { class: 'breakdown' },
        h(
          'tbody',
          {},
          h('tr', {}, h('th', { scope: 'row' }, t('total')), h('td', {}, money(b.total, b.currency))),
          b.balance.paid > 0
            ? h(
                'tr',
                {},
                h('th', { scope: 'row' }, t('paidSoFar')),
                h('td', {}, money(b.balance.paid, b.balance.currency)),
              )
            : null,
          h(
            'tr',
            { class: 'total' },
            h('th', { scope: 'row' }, t('amountDue')),
            h('td', {}, money(due.amount, due.currency)),
          ),
        ),
      ),
      h('div', { class: 'card-element' }, this.card ? h('slot', { name: this.card.slot }) : null),
      h(
        'div',
        { class: 'actions' },
        this.back(),
        h(
          'button',
          {
            type: 'button',
            'data-f': 'pay',
            'aria-disabled': String(s.busy),
            on: { click: () => void this.confirmDue() },
          },
          s.busy ? t('paying') : t('payNow', { total: money(due.amount, due.currency) }),
        ),
      ),
    );
  }

  private cancelView(s: AccountState): HTMLElement {
    const { t, money } = this.ctx.i18n;
    const b = s.booking!;
    const c = b.cancellation;
    const row = (label: string, amount: number, cls?: string) =>
      h('tr', cls ? { class: cls } : {}, h('th', { scope: 'row' }, label), h('td', {}, money(amount, c.currency)));
    return h(
      'div',
      {},
      heading(t('cancelTitle', { ref: b.reference })),
      h(
        'p',
        {},
        c.free
          ? t('freeUntil', { date: this.ctx.i18n.when(c.free_cancellation_until) })
          : t('feeNow', { fee: money(c.fee, c.currency), refund: money(c.refund, c.currency) }),
      ),
      h(
        'table',
        { class: 'breakdown' },
        h('tbody', {}, row(t('cancelFee'), c.fee, 'total'), row(t('refund'), c.refund)),
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', class: 'secondary', 'data-f': 'keep', on: { click: () => this.goBack() } },
          t('keepBooking'),
        ),
        h(
          'button',
          {
            type: 'button',
            'data-f': 'confirm-cancel',
            'aria-disabled': String(s.busy),
            on: { click: () => void this.confirmCancel() },
          },
          t('confirmCancel', { fee: money(c.fee, c.currency) }),
        ),
      ),
    );
  }

  private messagesView(s: AccountState): HTMLElement {
    const { t, when, status } = this.ctx.i18n;
    const compose = h(
      'button',
      { type: 'button', 'data-f': 'compose', on: { click: () => this.dispatch({ type: 'compose' }) } },
      t('newMessage'),
    );
    if (!s.threads) return h('div', {}, heading(t('messages')), this.loading());
    return h(
      'div',
      {},
      heading(t('messages')),
      h('div', { class: 'actions' }, compose),
      s.threads.length
        ? h(
            'ul',
            { class: 'cards threads' },
            s.threads.map((th) =>
              h(
                'li',
                { class: 'card', 'data-thread': th.id },
                h('h3', {}, th.subject),
                h(
                  'p',
                  { class: 'meta' },
                  `${status(th.status)} · ${when(th.last_message_at)}${th.unread_count ? ` · ${t('unread', { n: th.unread_count })}` : ''}`,
                ),
                h('p', { class: 'note' }, th.preview),
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'secondary',
                    'data-f': `thread-${th.id}`,
                    on: { click: () => this.openThread(th.id) },
                  },
                  t('openThread', { subject: th.subject }),
                ),
              ),
            ),
          )
        : h('p', { class: 'note' }, t('noThreads')),
    );
  }

  private threadView(s: AccountState): HTMLElement {
    const { t, when } = this.ctx.i18n;
    const th = s.thread;
    if (!th) return h('div', {}, heading(t('messages')), this.loading());
    const msgs = [th.message, ...th.replies];
    const d = this.draft;
    return h(
      'div',
      {},
      heading(th.thread.subject),
      this.notice(s),
      h(
        'ol',
        { class: 'thread' },
        msgs.map((m) =>
          h(
            'li',
            { class: `msg ${m.sender}` },
            h('p', { class: 'meta' }, `${m.sender === 'customer' ? t('you') : m.author_name} · ${when(m.created_at)}`),
            h('p', { class: 'body' }, m.body),
          ),
        ),
      ),
      h(
        'form',
        {
          class: 'stack',
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              void this.reply();
            },
          },
        },
        field(
          t('yourReply'),
          h(
            'textarea',
            {
              name: 'reply',
              required: true,
              rows: 3,
              maxlength: 10000,
              'data-f': 'reply',
              on: {
                input: (e: Event) => {
                  d.reply = (e.target as HTMLTextAreaElement).value;
                },
              },
            },
            d.reply,
          ),
        ),
        h(
          'div',
          { class: 'actions' },
          this.back(),
          h('button', { type: 'submit', 'data-f': 'send-reply', disabled: s.busy }, t('sendReply')),
        ),
      ),
    );
  }

  private composeView(s: AccountState): HTMLElement {
    const { t } = this.ctx.i18n;
    const d = this.draft;
    const ref = s.about && s.booking?.id === s.about ? s.booking.reference : s.about ? `#${s.about}` : '';
    if (ref && !d.subject) d.subject = t('aboutBooking', { ref });
    return h(
      'div',
      {},
      heading(t('newMessage')),
      ref ? h('p', { class: 'note' }, t('aboutBooking', { ref })) : null,
      h(
        'form',
        {
          class: 'stack',
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              void this.send();
            },
          },
        },
        field(
          t('subject'),
          h('input', {
            name: 'subject',
            required: true,
            maxlength: 200,
            value: d.subject,
            'data-f': 'subject',
            on: {
              input: (e: Event) => {
                d.subject = (e.target as HTMLInputElement).value;
              },
            },
          }),
        ),
        field(
          t('message'),
          h(
            'textarea',
            {
              name: 'message',
              required: true,
              rows: 5,
              maxlength: 10000,
              'data-f': 'message',
              on: {
                input: (e: Event) => {
                  d.message = (e.target as HTMLTextAreaElement).value;
                },
              },
            },
            d.message,
          ),
        ),
        h(
          'div',
          { class: 'actions' },
          this.back(),
          h('button', { type: 'submit', 'data-f': 'send', disabled: s.busy }, t('send')),
        ),
      ),
    );
  }

  private profileView(s: AccountState): HTMLElement {
    const { t } = this.ctx.i18n;
    const p = s.profile;
    if (!p) return h('div', {}, heading(t('profile')), this.loading());
    if (this.minPassword === null)
      void this.ctx.api.passwordPolicy().then((policy) => {
        this.minPassword = policy.min_length;
        if (this.state.step === 'profile') this.render();
      });
    const draft = this.profileDraft;
    const input = (name: ProfileField, label: string, extra: Record<string, string | boolean> = {}) =>
      field(
        label,
        h('input', {
          name,
          value: draft[name] ?? p[name],
          'data-f': `p-${name}`,
          ...extra,
          on: {
            input: (e: Event) => {
              draft[name] = (e.target as HTMLInputElement).value;
            },
          },
        }),
      );
    const pw = this.pw;
    const secret = (name: 'current' | 'next', label: string, extra: Record<string, string | boolean>) =>
      field(
        label,
        h('input', {
          name: `pw-${name}`,
          type: 'password',
          required: true,
          value: pw[name],
          'data-f': `pw-${name}`,
          ...extra,
          on: {
            input: (e: Event) => {
              pw[name] = (e.target as HTMLInputElement).value;
            },
          },
        }),
      );
    return h(
      'div',
      {},
      heading(t('profile')),
      this.notice(s),
      h('p', { class: 'meta' }, `${t('email')}: ${p.email}`),
      h(
        'form',
        {
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              void this.saveProfile(e.target as HTMLFormElement);
            },
          },
        },
        input('first_name', t('firstName'), { autocomplete: 'given-name', maxlength: '100' }),
        input('last_name', t('lastName'), { autocomplete: 'family-name', maxlength: '100' }),
        input('phone', t('phone'), { type: 'tel', autocomplete: 'tel', maxlength: '50' }),
        h('button', { type: 'submit', 'data-f': 'save-profile', disabled: s.busy }, t('saveProfile')),
      ),
      h('h3', {}, t('changePassword')),
      h(
        'form',
        {
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              void this.changePassword();
            },
          },
        },
        secret('current', t('currentPassword'), { autocomplete: 'current-password' }),
        secret('next', t('newPassword'), {
          autocomplete: 'new-password',
          'aria-describedby': 'rova-new-password-rule',
        }),
        this.minPassword === null
          ? null
          : h('p', { class: 'note', id: 'rova-new-password-rule' }, t('passwordRule', { n: this.minPassword })),
        h('button', { type: 'submit', 'data-f': 'change-password', disabled: s.busy }, t('changePassword')),
      ),
    );
  }
}
