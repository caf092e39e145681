/**
 * Card payment with Stripe.js's Payment Element (loaded from the URL the server names: ROVA_STRIPE_JS_URL, a
 * local stand-in in tests). Stripe's iframe lives in the light DOM — a child of the widget's host element shown
 * through a <slot> — since Stripe.js does not mount inside shadow roots.
 */
interface StripeElement {
  mount(el: HTMLElement): void;
  destroy?(): void;
}
interface StripeElements {
  create(type: 'payment', options?: object): StripeElement;
}
export interface StripeJs {
  elements(options: { clientSecret: string }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    redirect: 'if_required';
    confirmParams?: { return_url?: string };
  }): Promise<{ error?: { message?: string } }>;
}

declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

let loading: Promise<void> | null = null;

/** Loads Stripe.js once per page (a script element: allowed by the page's CSP for that origin). */
export function loadStripe(url: string): Promise<void> {
  if (window.Stripe) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = url;
    s.async = true;
    s.addEventListener('load', () => resolve());
    s.addEventListener('error', () => {
      loading = null;
      s.remove();
      reject(new Error('Stripe.js could not be loaded'));
    });
    document.head.append(s);
  });
  return loading;
}

let uid = 0;

/** A Payment Element for one PaymentIntent, mounted in a light-DOM node of `host` assigned to the returned slot name. */
export async function paymentElement(
  url: string,
  publishableKey: string,
  clientSecret: string,
  host: Element,
): Promise<{ slot: string; confirm(): Promise<string | null>; remove(): void }> {
  await loadStripe(url);
  if (!window.Stripe) throw new Error('Stripe.js did not define Stripe()');
  const stripe = window.Stripe(publishableKey);
  const elements = stripe.elements({ clientSecret });
  const slot = `rova-pay-${++uid}`;
  const node = document.createElement('div');
  node.setAttribute('slot', slot);
  host.append(node);
  const el = elements.create('payment');
  el.mount(node);
  return {
    slot,
    /** null when paid, else Stripe's message. */
    async confirm() {
      const r = await stripe.confirmPayment({
        elements,
        redirect: 'if_required',
        confirmParams: { return_url: location.href },
      });
      return r.error ? (r.error.message ?? 'The payment failed.') : null;
    },
    remove() {
      el.destroy?.();
      node.remove();
    },
  };
}
