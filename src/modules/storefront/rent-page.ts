import { escapeHtml } from '../store/index.js';

/** The demo page's policy: scripts only from this origin (no inline script anywhere), styles inline for the page. */
export const RENT_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'self'";

/**
 * The policy with card payment on: Stripe.js's origin may run scripts and frames (the Payment Element is an
 * iframe), and the page may connect to Stripe's API (Stripe's documented CSP), or to the stand-ins tests use.
 */
export function rentPageCsp(stripe: { jsUrl: string; apiOrigin: string } | null): string {
  if (!stripe) return RENT_PAGE_CSP;
  const js = new URL(stripe.jsUrl).origin;
  const frames = js === 'https://js.stripe.com' ? `${js} https://hooks.stripe.com` : js;
  return RENT_PAGE_CSP.replace(
    "default-src 'self'; script-src 'self'",
    `default-src 'self'; script-src 'self' ${js}; frame-src ${frames}; connect-src 'self' ${stripe.apiOrigin}`,
  );
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2330;background:#f6f7fb}
header{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.9rem 2rem;background:#fff;border-bottom:1px solid #e3e5ee}
header a,header span{color:inherit;text-decoration:none;font-weight:700;font-size:1.25rem}main{max-width:1100px;margin:0 auto;padding:1.5rem 2rem 3rem}
.open{font:inherit;font-weight:600;padding:.55rem 1.1rem;border-radius:8px;border:1px solid #0f5ea8;background:#0f5ea8;color:#fff;cursor:pointer}
.note{color:#4b5563}nav{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}nav a{font-size:1rem;font-weight:600;color:#0f5ea8}
`;

function shell(
  scriptUrl: string,
  restRoot: string,
  title: string,
  header: string,
  main: string,
  floating: boolean,
  home = '<a href="/demo/rent">Rova rentals</a>',
  titleSuffix = ' — Rova demo',
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}${titleSuffix}</title>
<style>${STYLE}</style>
<script src="${escapeHtml(scriptUrl)}" data-api="${escapeHtml(restRoot)}"${floating ? ' data-rova-book-floating data-location="1"' : ''} defer></script>
</head>
<body>
<header>${home}<nav>${header}</nav></header>
<main>
${main}
</main>
</body>
</html>
`;
}

/**
 * GET /demo/rent: the booking widget inline, behind a pop-up button and as a floating button. The same HTML for
 * every visitor (no personal data), one script tag, no inline script: it works under RENT_PAGE_CSP.
 */
export function rentPage(scriptUrl: string, restRoot: string): string {
  return shell(
    scriptUrl,
    restRoot,
    'Rent a car',
    '<a href="/demo/rent/account">My account</a><button type="button" class="open" data-rova-book-open data-location="1">Book from Istanbul Airport</button>',
    `<h1>Rent a car</h1>
<p class="note">Search, choose and book: the booking widget below is one script tag. Try <code>?rova_pickup=2027-06-01T10:00&amp;rova_lang=de</code>.</p>
<div data-rova-book></div>`,
    true,
  );
}

/**
 * GET /demo/rent/account: the widget's account mode (sign in, my bookings, cancel, messages, profile). The same
 * HTML for every visitor: who is signed in lives only in the widget's memory.
 */
export function accountPage(scriptUrl: string, restRoot: string): string {
  return shell(
    scriptUrl,
    restRoot,
    'My account',
    '<a href="/demo/rent">Book a car</a>',
    `<h1>My account</h1>
<p class="note">Your bookings, cancellations, messages to us and your profile: the same script tag, <code>data-rova-book="account"</code>.</p>
<div data-rova-book="account"></div>`,
    false,
  );
}

/**
 * GET /account: the customer's account page Rova serves with or without demo data, the default `ACCOUNT_URL` that
 * booking mails link to (`?rova_booking=`) and where the password-reset mail leads (`?rova_reset=`: the widget asks
 * for the new password first, then drops the token from the address bar). The same HTML for every visitor; no token
 * ever reaches the page's body.
 */
export function storeAccountPage(scriptUrl: string, restRoot: string, storeName: string): string {
  return shell(
    scriptUrl,
    restRoot,
    'My account',
    '',
    `<h1>My account</h1>
<div data-rova-book="account"></div>`,
    false,
    `<span>${escapeHtml(storeName)}</span>`,
    ` — ${escapeHtml(storeName)}`,
  );
}
