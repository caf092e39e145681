import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ACCOUNT, expectAxeClean } from './book-helpers.js';

// What a customer does on the widget's account page (/demo/rent/account, or a booking's manage link), step by step
// as a person does it, and how the tests read a booking's money there.

/** An amount as the widget shows it (en-GB). */
export const money = (amount: number, currency: string): string =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);

/** Fills the account widget's sign-in form and sends it. */
export async function signIn(w: Locator, c: { email: string; password: string }): Promise<void> {
  await w.locator('input[name=email]').fill(c.email);
  await w.locator('input[name=password]').fill(c.password);
  await w.locator('button[data-f=auth-submit]').click();
}

/** From the landing page (`/`): the demo rental page's link, its "My account" link, then signs in there. */
export async function signInFromHome(page: Page, c: { email: string; password: string }): Promise<Locator> {
  const origin = new URL(page.url()).origin;
  await page.getByRole('link', { name: 'Demo rental page' }).click();
  await page.waitForURL(`${origin}/demo/rent`);
  await page.getByRole('link', { name: 'My account' }).click();
  await page.waitForURL(`${origin}/demo/rent/account`);
  const w = page.locator(ACCOUNT);
  await signIn(w, c);
  return w;
}

/** The value cell of the booking's breakdown row whose header is `label`. */
export function breakdownCell(page: Page, w: Locator, label: string): Locator {
  return w
    .locator('table.breakdown tr')
    .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
    .locator('td');
}

/**
 * The booking owes `due` of `total`: its "Pay the rest" button says how much, the breakdown shows what is due, what
 * was paid and the total, and the page is axe clean (`label`). Answers the button.
 */
export async function expectAmountDue(
  page: Page,
  w: Locator,
  b: { total: number; currency: string },
  owed: { due: number; total: number },
  label: string,
): Promise<Locator> {
  const payRest = w.locator('button[data-f=pay-due]');
  await payRest.waitFor();
  expect(await payRest.textContent()).toBe(`Pay the rest (${money(owed.due, b.currency)}) by card`);
  const cell = (row: string) => breakdownCell(page, w, row);
  expect(await cell('Amount due').textContent()).toBe(money(owed.due, b.currency));
  expect(await cell('Paid').textContent()).toBe(money(b.total, b.currency));
  expect(await cell('Total').textContent()).toBe(money(owed.total, b.currency));
  await expectAxeClean(page, label);
  return payRest;
}

/**
 * On the way to "Pay the rest of booking …": it asks for `amount`, is axe clean (`label`), takes a good card, and
 * says the booking is paid in full, back on the booking.
 */
export async function payTheRestByCard(
  page: Page,
  w: Locator,
  b: { reference: string; currency: string },
  amount: number,
  label: string,
): Promise<void> {
  await w.locator('h2', { hasText: `Pay the rest of booking ${b.reference}` }).waitFor();
  const cardField = page.getByLabel('Card number');
  await cardField.waitFor();
  expect(await w.locator('tr.total td').textContent()).toBe(money(amount, b.currency));
  await expectAxeClean(page, label);
  await cardField.fill('4242 4242 4242 4242');
  await w.locator('button[data-f=pay]').click();
  await w
    .locator('p.notice', { hasText: `Payment of ${money(amount, b.currency)} received: your booking is paid in full.` })
    .waitFor();
  await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
}
