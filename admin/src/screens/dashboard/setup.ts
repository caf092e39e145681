// The getting-started checklist, pure: each step's state from what the API answers (no state of its own).

export type StepId = 'currency' | 'location' | 'vehicle' | 'payment' | 'api_key';

export interface SetupFacts {
  /** The store currency (prices are kept in it) and the display currencies the FX service has. */
  currency: { base: string; currencies: { code: string; enabled: boolean }[] } | undefined;
  locations: number | undefined;
  vehicles: number | undefined;
  /** GET /rova-rental/v2/payments/config: the providers a booking may use; `stripe` set once card payment works. */
  payments: { providers: string[]; stripe: unknown } | undefined;
  /** API keys and their status. */
  apiKeys: { status: string }[] | undefined;
}

export interface SetupStep {
  id: StepId;
  title: string;
  /** What the step is for (open) or what is there (done). */
  detail: string;
  /** null while the fact is still loading (or could not be read). */
  done: boolean | null;
  /** The in-app screen that does it (router path), or null when no screen can (server configuration). */
  to: string | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function setupSteps(f: SetupFacts): SetupStep[] {
  const shown = f.currency?.currencies.filter((c) => c.enabled && c.code !== f.currency!.base) ?? [];
  const activeKeys = f.apiKeys?.filter((k) => k.status === 'active').length ?? 0;
  const card = f.payments ? f.payments.providers.includes('stripe') && f.payments.stripe != null : null;
  return [
    {
      id: 'currency',
      title: 'Choose the currencies you show prices in',
      detail: !f.currency
        ? 'Checking…'
        : shown.length > 0
          ? `Prices are kept in ${f.currency.base} and shown in ${shown.map((c) => c.code).join(', ')}.`
          : `Prices are kept in ${f.currency.base}. Add the currencies visitors may see them in, with their rates.`,
      done: f.currency ? shown.length > 0 : null,
      to: '/currency',
    },
    {
      id: 'location',
      title: 'Add your first location',
      detail:
        f.locations === undefined
          ? 'Checking…'
          : f.locations > 0
            ? `${plural(f.locations, 'location')}.`
            : 'Where customers pick up and return vehicles.',
      done: f.locations === undefined ? null : f.locations > 0,
      to: '/locations',
    },
    {
      id: 'vehicle',
      title: 'Add your first vehicle',
      detail:
        f.vehicles === undefined
          ? 'Checking…'
          : f.vehicles > 0
            ? `${plural(f.vehicles, 'vehicle')}.`
            : 'A vehicle with its price per day, at one of your locations.',
      done: f.vehicles === undefined ? null : f.vehicles > 0,
      to: '/vehicles',
    },
    {
      id: 'payment',
      title: 'Take card payments',
      detail:
        card === null
          ? 'Checking…'
          : card
            ? 'Customers can pay by card (Stripe).'
            : 'Customers can book and pay offline (at pick-up). For card payment, the server needs ' +
              'BOOKING_PAYMENT_PROVIDERS=offline,stripe and your Stripe keys in its environment: ask whoever runs it.',
      done: card,
      to: null,
    },
    {
      id: 'api_key',
      title: 'Create an API key for your storefront',
      detail: !f.apiKeys
        ? 'Checking…'
        : activeKeys > 0
          ? `${plural(activeKeys, 'active key')}.`
          : 'Your website or app calls the API with it.',
      done: f.apiKeys ? activeKeys > 0 : null,
      to: '/system?tab=keys',
    },
  ];
}

/**
 * An installation with nothing to chart yet: no bookings and no vehicles. Its dashboard shows the checklist instead
 * of empty charts; undefined while either number is unknown.
 */
export function isEmptyInstallation(
  totalBookings: number | undefined,
  vehicles: number | undefined,
): boolean | undefined {
  if (totalBookings === undefined || vehicles === undefined) return undefined;
  return totalBookings === 0 && vehicles === 0;
}
