import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MOBILE,
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  rental,
  screenshot,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

interface T {
  id: number;
  subject: string;
  status: string;
  customer_email: string;
}
interface Page<X> {
  items: X[];
  total: number;
}
interface Thread {
  thread: T;
  message: { body: string };
  replies: { body: string; sender: string }[];
}

describe('admin messages', () => {
  it('inbox and filters match the API; a reply and a status change round-trip', async () => {
    const all = await rental<Page<T>>(rig, '/rova-rental/v1/messages?per_page=20');
    const pending = await rental<Page<T>>(rig, '/rova-rental/v1/messages?per_page=20&status=pending');
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/messages' });
    const { page } = a;
    const table = page.getByRole('table', { name: 'Message threads' });
    await page.getByText(`${all.total} total`).waitFor();
    expect(await table.locator('tbody tr td:nth-child(1)').allTextContents()).toEqual(all.items.map((m) => m.subject));
    await page.getByLabel('Status').selectOption('pending');
    await page.getByText(`${pending.total} total`).waitFor();
    await expectAxeClean(page, 'messages inbox');
    await screenshot(page, 'messages');

    const t = pending.items[0]!;
    await table.getByRole('link', { name: t.subject }).click();
    await page.getByRole('heading', { name: t.subject }).waitFor();
    const before = await rental<Thread>(rig, `/rova-rental/v1/messages/${t.id}`);
    expect(await page.getByTestId('thread').textContent()).toContain(before.message.body);
    await expectAxeClean(page, 'message thread');
    await screenshot(page, 'message-thread');

    // Empty reply: the client says so next to the field, nothing is sent.
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Write a reply first').waitFor();
    const text = `We will check the car today (e2e ${Date.now()}).`;
    await page.getByLabel('Your reply').fill(text);
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect.poll(() => page.getByTestId('thread').textContent()).toContain(text);
    const after = await rental<Thread>(rig, `/rova-rental/v1/messages/${t.id}`);
    expect(after.replies.map((r) => [r.sender, r.body])).toContainEqual(['admin', text]);
    expect(after.thread.status).toBe('replied');
    // the customer is told: the reply by mail, in the outbox with it
    const mails = await rig.api<{ template: string; subject: string; text: string }[]>(
      `/rova/v1/outbox?to=${encodeURIComponent(t.customer_email)}&template=message_reply`,
    );
    expect(mails.status).toBe(200);
    expect(mails.body.filter((m) => m.text.includes(text)).map((m) => m.subject)).toEqual([
      `[Rova] New reply to your message — ${t.subject}`,
    ]);
    await expect.poll(() => page.getByLabel('Status').inputValue()).toBe('replied');

    await page.getByLabel('Status').selectOption('closed');
    await expect
      .poll(async () => (await rental<Thread>(rig, `/rova-rental/v1/messages/${t.id}`)).thread.status)
      .toBe('closed');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('mobile: inbox as cards and the thread readable at 390 px', async () => {
    const all = await rental<Page<T>>(rig, '/rova-rental/v1/messages?per_page=20');
    const a = await openAdmin(rig, MOBILE);
    await loginAs(rig, a, { path: '/messages' });
    const { page } = a;
    await page.getByText(`${all.total} total`).waitFor();
    const cards = page.getByRole('list', { name: 'Message threads' }).locator(':scope > li');
    expect(await cards.count()).toBe(all.items.length);
    await expectAxeClean(page, 'messages mobile');
    await screenshot(page, 'messages-mobile');
    await cards.first().getByRole('link').click();
    await page.getByRole('heading', { name: all.items[0]!.subject }).waitFor();
    await expectAxeClean(page, 'thread mobile');
    await a.context.close();
  });
});
