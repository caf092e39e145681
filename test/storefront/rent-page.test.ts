import { describe, expect, it } from 'vitest';
import { accountPage, rentPage, rentPageCsp, RENT_PAGE_CSP } from '../../src/modules/storefront/rent-page.js';

describe('demo rental pages', () => {
  it('CSP: strict by default; with card payment Stripe’s documented origins, or the stand-in’s origin in tests', () => {
    expect(rentPageCsp(null)).toBe(RENT_PAGE_CSP);
    const real = rentPageCsp({ jsUrl: 'https://js.stripe.com/v3/', apiOrigin: 'https://api.stripe.com' });
    expect(real).toContain("script-src 'self' https://js.stripe.com;");
    expect(real).toContain('frame-src https://js.stripe.com https://hooks.stripe.com;');
    expect(real).toContain("connect-src 'self' https://api.stripe.com;");
    expect(real).toContain("object-src 'none'");
    const local = rentPageCsp({ jsUrl: 'http://127.0.0.1:4242/v3/', apiOrigin: 'http://127.0.0.1:4242' });
    expect(local).toContain(
      "script-src 'self' http://127.0.0.1:4242; frame-src http://127.0.0.1:4242; connect-src 'self' http://127.0.0.1:4242;",
    );
  });

  it('the rent page has the floating button on its script tag and links the account page; no inline script on either', () => {
    const rent = rentPage('/assets/rova-book/book.abc.js', '/wp-json');
    expect(rent).toContain(
      '<script src="/assets/rova-book/book.abc.js" data-api="/wp-json" data-rova-book-floating data-location="1" defer></script>',
    );
    expect(rent).toContain('<a href="/demo/rent/account">My account</a>');
    const account = accountPage('/assets/rova-book/book.abc.js', '/wp-json');
    expect(account).toContain('<div data-rova-book="account"></div>');
    expect(account).not.toContain('data-rova-book-floating');
    for (const html of [rent, account]) expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });
});
