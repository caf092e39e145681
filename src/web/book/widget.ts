/**
 * One mounted booking widget: a shadow root with the journey's view, a live region and an alert region.
 * Renders `State` (journey.ts) and runs the API calls each action asks for.
 */
import { newAttemptKey } from './attempt-key.js';
import { guestForm, newGuest } from './guest-view.js';
import { cover, gallery } from './photos.js';
import { ApiError, signedIn, type Api, type Currency, type Location, type PaymentConfig } from './api.js';
import { authForm, newAuth, submitAuth } from './auth-view.js';
import { field, h, heading } from './dom.js';
import { emit } from './events.js';
import { extraLabel, extrasTaken, extrasView } from './extras.js';
import { i18n, LANGUAGES, type I18n, type Lang } from './i18n/index.js';
import { initialState, reduce, type Action, type Card, type Chosen, type Query, type State } from './journey.js';
import { hoursOn, placesView } from './places.js';
import { paymentElement } from './stripe.js';
import { CSS } from './styles.js';
import { DriverForm, type DriverFacts } from './driver.js';

let sheet: CSSStyleSheet | null = null;

/** The rule kinds that change the rent itself (add-ons, tax and deposit have their own lines or none). */
const CHANGES_RENT = new Set(['season', 'weekend', 'duration']);

/** Styles inside the shadow root: a constructed stylesheet where supported, else a <style> element. */
export function adoptStyles(root: ShadowRoot): void {
  try {
    sheet ??= new CSSStyleSheet();
    if (sheet.cssRules.length === 0) sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } catch {
    root.append(h('style', {}, CSS));
  }
}

export interface WidgetContext {
  api: Api;
  i18n: I18n;
  /** The visitor's currency for search prices (null: the store's). */
  currency: () => Promise<string | null>;
  /** The currencies the store offers (the fx switcher's list); empty: no switch is shown. */
  currencies: () => Promise<Currency[]>;
  /** The visitor picked a currency in the widget: the fx cookie is written and the page told. */
  pickCurrency: (code: string) => void;
  locations: Promise<Location[]>;
  /** How the store takes payment (card payment offered when `stripe` is set); null when unknown. */
  payments: () => Promise<PaymentConfig | null>;
  /** The journey moved to another step (the page's floating button steps aside while a booking is under way). */
  onStep?: (step: State['step']) => void;
}

export interface WidgetInit {
  query: Query;
  vehicle: number | null;
}

export class BookWidget {
  state: State;
  private readonly view: HTMLElement;
  private readonly live: HTMLElement;
  private readonly alert: HTMLElement;
  private locations: Location[] = [];
  /** The review step's driver, flight and terms (driver.ts). */
  private readonly driver: DriverForm;
  private currencies: Currency[] = [];
  /** The currency of the prices shown (the last search's). */
  private shownCurrency: string | null = null;
  private payments: PaymentConfig | null = null;
  /** The "book as a guest" form beside the sign-in (guest-view.ts). */
  private readonly guest = newGuest();
  /** The mounted Payment Element of the `pay` step. */
  private card: Awaited<ReturnType<typeof paymentElement>> | null = null;
  private lastStep: State['step'] | null = null;
  /** The first render does not move focus (the page just loaded); later step changes focus the step's heading. */
  private shown = false;
  private auth = newAuth();
  private readonly root: HTMLElement;

  constructor(
    /** The element events are dispatched on (the inline div, the pop-up button, or the dialog host). */
    private readonly target: HTMLElement,
    readonly container: HTMLElement,
    private readonly ctx: WidgetContext,
    init: WidgetInit,
  ) {
    const { t } = ctx.i18n;
    this.state = initialState(init.query);
    this.state.signedIn = signedIn();
    this.view = h('div', { class: 'view' });
    this.live = h('p', { class: 'sr', role: 'status', 'aria-live': 'polite' });
    this.alert = h('div', { class: 'alert', role: 'alert' });
    this.driver = new DriverForm(ctx.api, ctx.i18n, () => this.state.step === 'review' && this.render(true));
    this.root = h(
      'section',
      { class: 'root', part: 'root', 'aria-label': t('title'), lang: ctx.i18n.lang },
      this.view,
      this.live,
      this.alert,
    );
    container.append(this.root);
    this.render();
    void ctx.locations.then(
      (l) => {
        this.locations = l;
        if (this.state.step === 'search') this.render(true);
      },
      (err: unknown) => this.fail(err),
    );
    // the switch shows when the store offers several currencies; only then is the visitor's currency needed before a search
    void ctx.currencies().then(async (list) => {
      if (list.length < 2) return;
      this.currencies = list;
      this.shownCurrency ??= await ctx.currency();
      if (this.state.step === 'search' || this.state.step === 'results') this.render(true);
    });
    // a currency picked here, in another widget or in the page's fx switcher: the shown prices follow it
    document.addEventListener('rova-fx:currency-changed', () => {
      if (this.state.step === 'results' && !this.state.busy && this.container.isConnected)
        void this.search(this.state.query);
    });
    void ctx.payments().then((p) => {
      this.payments = p;
      if (p?.stripe && this.state.step === 'review') this.render(true);
    });
    this.emit('rova:ready', {});
    if (init.vehicle !== null) void this.preselect(init.vehicle);
  }

  /** The visitor's language choice: every text, date and amount of the widget follows it at once. */
  private switchLanguage(lang: Lang): void {
    this.ctx.i18n = i18n(lang);
    this.root.lang = lang;
    this.root.setAttribute('aria-label', this.ctx.i18n.t('title'));
    this.render(true);
    this.emit('rova:language', { lang });
  }

  private emit(type: string, detail: object): void {
    emit(this.target, type, detail);
  }

  private dispatch(a: Action): State {
    const before = this.state;
    this.state = reduce(this.state, a, newAttemptKey);
    if (this.state !== before) this.render();
    return this.state;
  }

  private fail(err: unknown): void {
    const { t } = this.ctx.i18n;
    const message = err instanceof ApiError ? err.message : t('networkError');
    this.dispatch({ type: 'failed', message });
    this.alert.textContent = t('error', { message });
    this.emit('rova:error', { message, status: err instanceof ApiError ? err.status : 0 });
  }

  // ── actions that call the API ─────────────────────────────────────────────

  async search(query: Query): Promise<void> {
    this.dispatch({ type: 'search', query });
    this.live.textContent = this.ctx.i18n.t('searching');
    this.emit('rova:search', { ...query, currency: await this.ctx.currency() });
    await this.page(null);
  }

  private async page(cursor: string | null): Promise<void> {
    try {
      const currency = await this.ctx.currency();
      const r = await this.ctx.api.search(this.state.query, currency, cursor);
      this.shownCurrency = r.items[0]?.currency ?? currency;
      this.dispatch({
        type: 'results',
        items: r.items,
        total: r.total,
        next: r.next_cursor,
        append: cursor !== null,
        categories: r.facets.category,
        fuels: r.facets.fuel_type,
      });
      this.live.textContent = r.total === 0 ? this.ctx.i18n.t('noResults') : this.ctx.i18n.t('results', { n: r.total });
    } catch (err) {
      this.fail(err);
    }
  }

  private async more(): Promise<void> {
    const cursor = this.state.nextCursor;
    if (this.dispatch({ type: 'more' }).busy && cursor) await this.page(cursor);
  }

  async select(vehicle: Card): Promise<void> {
    this.dispatch({ type: 'select', vehicle });
    this.emit('rova:select', { vehicle_id: vehicle.vehicle_id, name: vehicle.name });
    this.live.textContent = this.ctx.i18n.t('checking');
    try {
      const check = await this.ctx.api.check(this.state.query, vehicle.vehicle_id, {}, await this.ctx.currency());
      this.dispatch({ type: 'checked', check });
      this.live.textContent = check.available ? this.ctx.i18n.t('available') : this.ctx.i18n.t('taken');
    } catch (err) {
      this.fail(err);
    }
  }

  /** Extras changed on the check step: the API prices them (a later choice wins over an answer still on its way). */
  private async chooseExtras(chosen: Chosen): Promise<void> {
    const s = this.dispatch({ type: 'extras', chosen });
    if (s.extras !== chosen || !s.vehicle) return;
    try {
      const check = await this.ctx.api.check(s.query, s.vehicle.vehicle_id, chosen, await this.ctx.currency());
      if (this.state.extras === chosen) this.dispatch({ type: 'checked', check });
    } catch (err) {
      this.fail(err);
    }
  }

  /** A vehicle named by the options: searched with the options' dates and opened when it is free. */
  private async preselect(id: number): Promise<void> {
    await this.search(this.state.query);
    const card = this.state.results.find((c) => c.vehicle_id === id);
    if (card) await this.select(card);
  }

  private async signIn(): Promise<void> {
    if (this.dispatch({ type: 'signing-in' }).busy !== true) return;
    try {
      await submitAuth(this.ctx.api, this.auth);
      this.dispatch({ type: 'signed-in' });
      this.live.textContent = this.ctx.i18n.t('signedInAs');
    } catch (err) {
      this.fail(err);
    }
  }

  private async book(): Promise<void> {
    const facts = this.driverFacts(this.state);
    const taken = facts ? this.driver.take(facts, new Date().toISOString().slice(0, 10)) : { fields: {} };
    if ('problem' in taken) {
      this.dispatch({ type: 'failed', message: taken.problem });
      this.alert.textContent = this.ctx.i18n.t('error', { message: taken.problem });
      return;
    }
    const before = this.state;
    const s = this.dispatch({ type: 'book' });
    if (s === before || !s.attemptKey || !s.vehicle) return; // a second click while the first runs
    this.live.textContent = this.ctx.i18n.t('booking');
    try {
      const booking = await this.ctx.api.create(
        s.query,
        s.vehicle.vehicle_id,
        s.attemptKey,
        s.payment,
        s.extras,
        taken.fields,
      );
      this.dispatch({ type: 'created', booking });
      this.emit('rova:booking-created', {
        id: booking.id,
        reference: booking.reference,
        total: booking.total,
        currency: booking.currency,
      });
      if (booking.clientSecret && this.payments?.stripe) {
        await this.mountCard(this.payments.stripe, booking.clientSecret);
        this.render(true);
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && !signedIn()) {
        this.dispatch({ type: 'signed-out', message: err.message });
        this.alert.textContent = this.ctx.i18n.t('error', { message: err.message });
        return;
      }
      this.fail(err);
    }
  }

  private async mountCard(stripe: NonNullable<PaymentConfig['stripe']>, clientSecret: string): Promise<void> {
    const host =
      this.container.getRootNode() instanceof ShadowRoot
        ? (this.container.getRootNode() as ShadowRoot).host
        : this.target;
    this.card?.remove();
    this.card = await paymentElement(stripe.js_url, stripe.publishable_key, clientSecret, host);
  }

  /** Confirms the card payment with Stripe.js, then waits (up to 30 s) until the webhook has confirmed the booking. */
  private async pay(): Promise<void> {
    const b = this.state.booking;
    if (!b || !this.card || this.dispatch({ type: 'paying' }).busy !== true) return;
    const { t } = this.ctx.i18n;
    this.live.textContent = t('paying');
    try {
      const refused = await this.card.confirm();
      if (refused) {
        this.dispatch({ type: 'failed', message: refused });
        this.alert.textContent = t('error', { message: refused });
        this.emit('rova:error', { message: refused, status: 402 });
        return;
      }
      for (let i = 0; i < 40; i++) {
        const now = await this.ctx.api.myBooking(b.id);
        if (now.status === 'confirmed') {
          this.card.remove();
          this.card = null;
          this.dispatch({ type: 'paid' });
          this.emit('rova:paid', { id: b.id, reference: b.reference, total: b.total, currency: b.currency });
          return;
        }
        await new Promise((r) => setTimeout(r, 750));
      }
      this.dispatch({ type: 'failed', message: t('payPending') });
      this.alert.textContent = t('payPending');
    } catch (err) {
      this.fail(err);
    }
  }

  // ── rendering ─────────────────────────────────────────────────────────────

  render(keepFocus = false): void {
    const s = this.state;
    const active =
      this.container.getRootNode() instanceof ShadowRoot
        ? (this.container.getRootNode() as ShadowRoot).activeElement
        : null;
    const focusKey = active instanceof HTMLElement ? active.dataset.f : undefined;
    if (!s.error) this.alert.textContent = '';
    const stepChanged = s.step !== this.lastStep;
    this.lastStep = s.step;
    if (stepChanged) this.ctx.onStep?.(s.step);
    const body = this.step(s);
    this.view.replaceChildren(body);
    if (stepChanged && !keepFocus && this.shown) {
      body.querySelector<HTMLElement>('h2')?.focus();
    } else if (focusKey) {
      this.view.querySelector<HTMLElement>(`[data-f="${focusKey}"]`)?.focus();
    }
    this.shown = true;
  }

  private step(s: State): HTMLElement {
    switch (s.step) {
      case 'search':
        return this.searchView(s);
      case 'results':
        return this.resultsView(s);
      case 'detail':
        return this.detailView(s);
      case 'auth':
        return this.authView(s);
      case 'review':
        return this.reviewView(s);
      case 'pay':
        return this.payView(s);
      case 'done':
        return this.doneView(s);
    }
  }

  private heading(text: string): HTMLElement {
    return heading(text);
  }

  private field(label: string, control: HTMLElement): HTMLElement {
    return field(label, control);
  }

  private searchForm(s: State): HTMLElement {
    const { t } = this.ctx.i18n;
    const q = s.query;
    const loc = (name: string, value: number | null, empty: string) =>
      h(
        'select',
        { name, 'data-f': name },
        h('option', { value: '' }, empty),
        this.locations.map((l) => h('option', { value: l.id, selected: l.id === value }, l.name)),
      );
    const input = (name: string, type: string, value: string, extra: Record<string, string> = {}) =>
      h('input', { name, type, value, required: true, 'data-f': name, ...extra });
    // the visitor's calendar day: the picker offers no earlier day, and the return none before the pick-up
    const today = new Intl.DateTimeFormat('en-CA').format(new Date());
    const returnDate = input('return_date', 'date', q.returnDate, { min: q.pickupDate < today ? today : q.pickupDate });
    const pickupDate = input('pickup_date', 'date', q.pickupDate, { min: today });
    pickupDate.addEventListener('change', () => {
      returnDate.min = pickupDate.value && pickupDate.value >= today ? pickupDate.value : today;
    });
    const sort = h(
      'select',
      { name: 'sort', 'data-f': 'sort' },
      (
        [
          ['price_asc', t('sortPriceAsc')],
          ['price_desc', t('sortPriceDesc')],
          ['name', t('sortName')],
          ['year_desc', t('sortNewest')],
        ] as const
      ).map(([v, l]) => h('option', { value: v, selected: q.sort === v }, l)),
    );
    const cats = Object.keys(s.categories);
    if (q.category && !cats.includes(q.category)) cats.push(q.category);
    const category = h(
      'select',
      { name: 'category', 'data-f': 'category' },
      h('option', { value: '' }, t('anyCategory')),
      cats.sort().map((c) => h('option', { value: c, selected: q.category === c }, this.ctx.i18n.attr(c))),
    );
    const transmission = h(
      'select',
      { name: 'transmission', 'data-f': 'transmission' },
      (
        [
          ['', t('anyTransmission')],
          ['manual', t('manual')],
          ['automatic', t('automatic')],
        ] as const
      ).map(([v, l]) => h('option', { value: v, selected: q.transmission === v }, l)),
    );
    const fuels = Object.keys(s.fuels);
    if (q.fuel && !fuels.includes(q.fuel)) fuels.push(q.fuel);
    const fuel = h(
      'select',
      { name: 'fuel', 'data-f': 'fuel' },
      h('option', { value: '' }, t('anyFuel')),
      fuels
        .sort()
        .map((f) =>
          h(
            'option',
            { value: f, selected: q.fuel === f },
            `${this.ctx.i18n.attr(f)}${s.fuels[f] !== undefined ? ` (${s.fuels[f]})` : ''}`,
          ),
        ),
    );
    const seats = h(
      'select',
      { name: 'seats', 'data-f': 'seats' },
      h('option', { value: '0' }, t('anySeats')),
      [2, 4, 5, 7, 9].map((n) => h('option', { value: n, selected: q.seats === n }, `${n}+`)),
    );
    const cur = this.shownCurrency;
    const currency =
      this.currencies.length > 1
        ? this.field(
            t('currency'),
            h(
              'select',
              {
                name: 'currency',
                'data-f': 'currency',
                on: {
                  change: (e: Event) => {
                    const code = (e.target as HTMLSelectElement).value;
                    this.shownCurrency = code;
                    this.ctx.pickCurrency(code);
                  },
                },
              },
              this.currencies.map((c) =>
                h(
                  'option',
                  { value: c.code, selected: c.code === cur },
                  `${c.code} – ${this.ctx.i18n.currencyName(c.code, c.name)}`,
                ),
              ),
            ),
          )
        : null;
    const form = h(
      'form',
      {
        // one message of ours for every wrong date, instead of the browser's bubble per field
        novalidate: true,
        on: {
          submit: (e: Event) => {
            e.preventDefault();
            const f = new FormData(e.target as HTMLFormElement);
            const str = (k: string) => String(f.get(k) ?? '');
            const num = (k: string) => (/^[1-9][0-9]*$/.test(str(k)) ? Number(str(k)) : null);
            const from = `${str('pickup_date')}T${str('pickup_time') || '10:00'}`;
            const to = `${str('return_date')}T${str('return_time') || '10:00'}`;
            const wrong = !/^\d{4}-\d{2}-\d{2}$/.test(str('pickup_date')) || str('pickup_date') < today || !(to > from);
            pickupDate.setAttribute('aria-invalid', String(wrong));
            returnDate.setAttribute('aria-invalid', String(wrong));
            if (wrong) {
              this.alert.textContent = t('datesInvalid');
              return;
            }
            const closed = this.outsideHours(
              num('location'),
              num('return_location'),
              [str('pickup_date'), str('pickup_time') || '10:00'],
              [str('return_date'), str('return_time') || '10:00'],
            );
            if (closed) {
              this.alert.textContent = closed;
              return;
            }
            this.alert.textContent = '';
            void this.search({
              location: num('location'),
              returnLocation: num('return_location'),
              pickupDate: str('pickup_date'),
              pickupTime: str('pickup_time') || '10:00',
              returnDate: str('return_date'),
              returnTime: str('return_time') || '10:00',
              sort: str('sort') || 'price_asc',
              category: str('category'),
              transmission: str('transmission'),
              fuel: str('fuel'),
              seats: Number(str('seats')) || 0,
            });
          },
        },
      },
      this.field(t('pickupLocation'), loc('location', q.location, t('anyLocation'))),
      this.field(t('returnLocation'), loc('return_location', q.returnLocation, t('sameLocation'))),
      this.field(t('pickupDate'), pickupDate),
      this.field(t('pickupTime'), input('pickup_time', 'time', q.pickupTime)),
      this.field(t('returnDate'), returnDate),
      this.field(t('returnTime'), input('return_time', 'time', q.returnTime)),
      this.field(t('category'), category),
      this.field(t('transmission'), transmission),
      this.field(t('fuel'), fuel),
      this.field(t('seats'), seats),
      this.field(t('sort'), sort),
      currency,
      this.field(
        t('language'),
        h(
          'select',
          {
            name: 'lang',
            'data-f': 'lang',
            on: { change: (e: Event) => this.switchLanguage((e.target as HTMLSelectElement).value as Lang) },
          },
          LANGUAGES.map(([code, name]) =>
            h('option', { value: code, lang: code, selected: this.ctx.i18n.lang === code }, name),
          ),
        ),
      ),
      h('button', { type: 'submit', 'data-f': 'search', disabled: s.busy }, s.busy ? t('searching') : t('search')),
    );
    return form;
  }

  private searchView(s: State): HTMLElement {
    return h('div', {}, this.heading(this.ctx.i18n.t('title')), this.searchForm(s));
  }

  /**
   * The per-day figure the card's total is made of: the rate when the total is days × rate, else the total spread
   * over the days (a season, weekend, discount or tax changed it), said as an average.
   */
  private perDay(c: State['results'][number]): string {
    const { t, money } = this.ctx.i18n;
    const cents = (x: number) => Math.round(x * 100);
    if (c.days < 1 || cents(c.total_price) === cents(c.price_per_day) * c.days)
      return t('perDay', { price: money(c.price_per_day, c.currency) });
    return t('perDayAverage', { price: money(Math.round(cents(c.total_price) / c.days) / 100, c.currency) });
  }

  private resultsView(s: State): HTMLElement {
    const { t, money } = this.ctx.i18n;
    const cards = s.results.map((c) =>
      h(
        'li',
        { class: 'card' },
        cover(this.ctx.api.root, c.photos, c.name),
        h('h3', {}, c.name),
        h(
          'p',
          { class: 'meta' },
          [
            this.ctx.i18n.attr(c.category),
            c.seats ? t('seatsCount', { n: c.seats }) : '',
            c.transmission ? this.ctx.i18n.attr(c.transmission) : '',
            c.fuel_type ? this.ctx.i18n.attr(c.fuel_type) : '',
          ]
            .filter(Boolean)
            .join(' · '),
        ),
        h(
          'p',
          { class: 'price', 'data-price': c.total_price, 'data-currency': c.currency },
          t('totalFor', { price: money(c.total_price, c.currency), days: c.days }),
        ),
        h('p', { class: 'note', 'data-f': 'per-day' }, this.perDay(c)),
        h(
          'button',
          { type: 'button', 'data-f': `choose-${c.vehicle_id}`, on: { click: () => void this.select(c) } },
          t('choose', { name: c.name }),
        ),
      ),
    );
    return h(
      'div',
      {},
      this.searchForm(s),
      this.heading(
        s.busy && s.results.length === 0
          ? t('searching')
          : s.total === 0
            ? t('noResults')
            : t('results', { n: s.total }),
      ),
      cards.length ? h('ul', { class: 'cards' }, cards) : null,
      s.nextCursor
        ? h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              'data-f': 'more',
              disabled: s.busy,
              on: { click: () => void this.more() },
            },
            t('more'),
          )
        : null,
    );
  }

  private period(s: State): string {
    const { t, date } = this.ctx.i18n;
    return t('period', {
      from: date(s.query.pickupDate, s.query.pickupTime),
      to: date(s.query.returnDate, s.query.returnTime),
    });
  }

  /**
   * Where the car is picked up and returned: name and address, the opening hours on that day (store time zone) and a
   * map link, so the customer knows where and when before booking.
   */
  private places(s: State): HTMLElement | null {
    const c = s.check;
    if (!c?.available) return null;
    const byId = (id: number | null | undefined) =>
      id === null || id === undefined ? undefined : this.locations.find((l) => l.id === id);
    const pick = byId(c.pickup_location_id ?? s.query.location ?? s.vehicle?.location_id);
    if (!pick) return null;
    const back = byId(c.return_location_id ?? s.query.returnLocation) ?? pick;
    return placesView(this.ctx.i18n, pick, back, { pickup: s.query.pickupDate, return: s.query.returnDate });
  }

  /**
   * The desk's hours, asked before the search rather than answered by an empty result: the pick-up time within the
   * pick-up location's hours that day, the return time within the return location's (the API decides the same way).
   */
  private outsideHours(
    pickupId: number | null,
    returnId: number | null,
    [pickupDate, pickupTime]: [string, string],
    [returnDate, returnTime]: [string, string],
  ): string | null {
    const { t, weekday } = this.ctx.i18n;
    const pick = this.locations.find((l) => l.id === pickupId);
    const back = returnId === null ? pick : this.locations.find((l) => l.id === returnId);
    const ask = (l: Location | undefined, date: string, time: string, kind: 'pickup' | 'return'): string | null => {
      if (!l) return null;
      const open = hoursOn(l, date);
      if (open === undefined) return null;
      const what = kind === 'pickup' ? t('pickupAt') : t('returnAt');
      if (!open) return t('deskClosed', { what, name: l.name, day: weekday(date) });
      if (time < open.open || time > open.close)
        return t('deskHours', { what, name: l.name, day: weekday(date), from: open.open, to: open.close });
      return null;
    };
    return ask(pick, pickupDate, pickupTime, 'pickup') ?? ask(back, returnDate, returnTime, 'return');
  }

  /**
   * The price as the customer checks it: the days at the vehicle's rate, then every rule that changed it (season,
   * weekend, duration) with the days it applied to, the extras, the tax, the total. The lines are the API's and add
   * up to its total. No deposit line: the widget books the whole amount (see `payTerms`).
   */
  private breakdown(s: State): HTMLElement | null {
    const c = s.check;
    if (!c?.available || c.currency === undefined) return null;
    const { t, money } = this.ctx.i18n;
    const cur = c.currency;
    const days = c.days ?? 0;
    const row = (label: string, amount: number, cls?: string) =>
      h('tr', cls ? { class: cls } : {}, h('th', { scope: 'row' }, label), h('td', {}, money(amount, cur)));
    const b = c.breakdown;
    const priced = b?.base !== undefined && c.price_per_day !== undefined;
    const rules = (b?.rules ?? []).filter((r) => CHANGES_RENT.has(r.kind) && r.amount !== 0);
    return h(
      'table',
      { class: 'breakdown' },
      h(
        'tbody',
        {},
        priced
          ? row(t('baseLine', { days: this.dayCount(days), price: money(c.price_per_day!, cur) }), b.base!)
          : row(t('rental', { days }), c.net_price ?? 0),
        priced
          ? rules.map((r) =>
              row(r.days ? t('ruleLine', { name: r.name, days: this.dayCount(r.days) }) : r.name, r.amount),
            )
          : null,
        priced ? (b.addons ?? []).map((a) => row(extraLabel(this.ctx.i18n, a), a.total)) : null,
        // returned at another desk: the one-way fee, named as the store named its rule
        priced
          ? (b.rules ?? [])
              .filter((r) => r.kind === 'one_way' && r.amount !== 0)
              .map((r) => row(r.name, r.amount, 'one-way'))
          : null,
        c.tax ? row(c.tax_rate ? t('taxRate', { rate: c.tax_rate }) : t('tax'), c.tax) : null,
        row(t('total'), c.total ?? 0, 'total'),
      ),
    );
  }

  private dayCount(n: number): string {
    return n === 1 ? this.ctx.i18n.t('oneDay') : this.ctx.i18n.t('nDays', { n });
  }

  /**
   * Browsing in another currency: the price is charged in the store's. Both amounts, before anything is booked
   * ("€117.11 ≈ US$125.10, charged in USD"); the first is the search's conversion of the same dates.
   */
  private chargedIn(s: State): HTMLElement | null {
    const c = s.check;
    const v = s.vehicle;
    if (!c?.available || !c.currency || c.total === undefined || !v || v.currency === c.currency) return null;
    const { t, money } = this.ctx.i18n;
    // the check's own conversion of its total (extras included); the card's figure only while none came back
    const shown = c.display ?? { total: v.total_price, currency: v.currency };
    return h(
      'p',
      { class: 'note', 'data-f': 'charged-in' },
      t('chargedIn', {
        shown: money(shown.total, shown.currency),
        charged: money(c.total, c.currency),
        code: c.currency,
      }),
    );
  }

  /** What is paid when, for the chosen method: the whole total (the widget books `payment_plan: full`). */
  private payTerms(s: State): HTMLElement | null {
    const c = s.check;
    if (!c?.available || c.currency === undefined || c.total === undefined) return null;
    const { t, money } = this.ctx.i18n;
    const total = money(c.total, c.currency);
    const text =
      s.payment === 'stripe'
        ? t('paidNowCard', { total })
        : s.payment === 'bank_transfer'
          ? t('paidByTransfer', { total })
          : t('paidAtPickup', { total });
    return h('p', { class: 'pay-terms', 'data-f': 'pay-terms' }, text);
  }

  private backButton(): HTMLElement {
    return h(
      'button',
      { type: 'button', class: 'secondary', 'data-f': 'back', on: { click: () => this.dispatch({ type: 'back' }) } },
      this.ctx.i18n.t('back'),
    );
  }

  private detailView(s: State): HTMLElement {
    const { t, money } = this.ctx.i18n;
    const v = s.vehicle;
    const c = s.check;
    const alts = c && !c.available ? (c.alternatives ?? []) : [];
    return h(
      'div',
      {},
      this.heading(v?.name ?? ''),
      gallery(this.ctx.api.root, v?.photos, v?.name ?? '', this.ctx.i18n),
      h('p', { class: 'meta' }, this.period(s)),
      !c ? h('p', {}, t('checking')) : c.available ? h('p', { class: 'ok' }, t('available')) : h('p', {}, t('taken')),
      this.places(s),
      extrasView(this.ctx.i18n, c, s.extras, s.busy, (next) => void this.chooseExtras(next)),
      this.breakdown(s),
      this.chargedIn(s),
      c && !c.available
        ? alts.length
          ? h(
              'div',
              {},
              h('p', {}, t('alternatives')),
              h(
                'ul',
                { class: 'cards' },
                alts.map((a) =>
                  h(
                    'li',
                    { class: 'card' },
                    h('h3', {}, a.name),
                    h('p', { class: 'price' }, money(a.total, a.currency)),
                    h(
                      'button',
                      {
                        type: 'button',
                        'data-f': `alt-${a.vehicle_id}`,
                        on: {
                          click: () =>
                            void this.select({
                              vehicle_id: a.vehicle_id,
                              name: a.name,
                              category: a.category,
                              brand: '',
                              model: '',
                              seats: null,
                              transmission: null,
                              fuel_type: null,
                              days: c.days ?? 0,
                              price_per_day: a.price_per_day,
                              total_price: a.total,
                              currency: a.currency,
                            }),
                        },
                      },
                      t('choose', { name: a.name }),
                    ),
                  ),
                ),
              ),
            )
          : h('p', {}, t('noAlternatives'))
        : null,
      h(
        'div',
        { class: 'actions' },
        this.backButton(),
        c?.available
          ? h(
              'button',
              { type: 'button', 'data-f': 'continue', on: { click: () => this.dispatch({ type: 'continue' }) } },
              t('continue'),
            )
          : null,
      ),
    );
  }

  private authView(s: State): HTMLElement {
    return h(
      'div',
      {},
      authForm(this.ctx.i18n, this.auth, s.busy, {
        api: this.ctx.api,
        submit: () => void this.signIn(),
        rerender: () => this.render(true),
      }),
      guestForm(this.ctx.i18n, this.guest, {
        api: this.ctx.api,
        rerender: () => this.render(true),
        verified: () => this.dispatch({ type: 'signed-in' }),
      }),
      h('div', { class: 'actions' }, this.backButton()),
    );
  }

  private driverFacts(s: State): DriverFacts | null {
    if (!s.vehicle) return null;
    const desk = this.locations.find((l) => l.id === s.query.location);
    return { category: s.vehicle.category, pickupDate: s.query.pickupDate, airport: desk?.type === 'airport' };
  }

  private reviewView(s: State): HTMLElement {
    const { t } = this.ctx.i18n;
    return h(
      'div',
      {},
      this.heading(t('review')),
      h('h3', {}, s.vehicle?.name ?? ''),
      h('p', { class: 'meta' }, this.period(s)),
      this.breakdown(s),
      this.chargedIn(s),
      this.payTerms(s),
      this.driverFacts(s) && this.driver.view(this.driverFacts(s)!),
      // every offline method has its own rule (issue 35.1): pick-up holds the car, a transfer has days, a card minutes
      h(
        'fieldset',
        { class: 'pay-with' },
        h('legend', {}, t('payment')),
        (
          [
            ['offline', t('payOfflineOption')],
            ['bank_transfer', t('payTransferOption')],
            // a guest (no session) pays offline: the card step waits on the account's booking view
            ...(this.payments?.stripe && signedIn() ? [['stripe', t('payCardOption')] as const] : []),
          ] as const
        ).map(([m, label]) =>
          h(
            'label',
            { class: 'radio' },
            h('input', {
              type: 'radio',
              name: 'payment',
              value: m,
              checked: s.payment === m,
              'data-f': `pay-${m}`,
              on: { change: () => this.dispatch({ type: 'pay-with', method: m }) },
            }),
            label,
          ),
        ),
      ),
      h(
        'div',
        { class: 'actions' },
        this.backButton(),
        h(
          'button',
          { type: 'button', 'data-f': 'book', 'aria-disabled': String(s.busy), on: { click: () => void this.book() } },
          s.busy
            ? t('booking')
            : s.payment === 'stripe'
              ? t('bookCard')
              : s.payment === 'bank_transfer'
                ? t('bookTransfer')
                : t('book'),
        ),
      ),
    );
  }

  private payView(s: State): HTMLElement {
    const { t, money } = this.ctx.i18n;
    const b = s.booking!;
    return h(
      'div',
      {},
      this.heading(t('payCardOption')),
      h('p', {}, t('reference'), ': ', h('span', { class: 'ref', 'data-reference': b.reference }, b.reference)),
      h('div', { class: 'card-element' }, this.card ? h('slot', { name: this.card.slot }) : null),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', 'data-f': 'pay', 'aria-disabled': String(s.busy), on: { click: () => void this.pay() } },
          s.busy ? t('paying') : t('payNow', { total: money(b.total, b.currency) }),
        ),
      ),
    );
  }

  private doneView(s: State): HTMLElement {
    const { t, money, when } = this.ctx.i18n;
    const b = s.booking;
    return h(
      'div',
      {},
      this.heading(t('done')),
      h(
        'p',
        {},
        t('reference'),
        ': ',
        h('span', { class: 'ref', 'data-reference': b?.reference ?? '' }, b?.reference ?? ''),
      ),
      s.vehicle ? h('p', { class: 'meta', 'data-f': 'done-period' }, `${s.vehicle.name} · ${this.period(s)}`) : null,
      this.places(s),
      extrasTaken(this.ctx.i18n, s.check),
      b ? h('p', {}, t('total'), ': ', money(b.total, b.currency)) : null,
      h('p', { class: b?.paid ? 'ok' : '' }, b?.paid ? t('paidText') : t('doneText')),
      b && !b.paid && !b.clientSecret
        ? h(
            'p',
            { class: 'deadline', 'data-deadline': b.deadline ?? '' },
            b.deadline ? t('payBy', { date: when(b.deadline) }) : t('heldUntilPickup'),
          )
        : null,
      b?.instructions && !b.clientSecret ? h('p', { class: 'note' }, b.instructions) : null,
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'data-f': 'again',
            on: { click: () => this.dispatch({ type: 'restart' }) },
          },
          t('again'),
        ),
      ),
    );
  }
}
