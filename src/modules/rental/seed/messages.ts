import { sql } from 'drizzle-orm';
import type { Platform } from '../../../platform/context.js';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { insertMessage } from '../messages/repo.js';
import type { MessageCategory, MessagePriority, MessageStatus } from '../messages/schemas.js';

/** Password of the demo customer logins (documented in docs/readme/rental-admin.md). */
export const DEMO_CUSTOMER_PASSWORD = 'demo-customer-2026';
/** How many demo customers (the first by id) get a customer-role login. */
const DEMO_LOGINS = 3;

interface ThreadTemplate {
  customer: number;
  subject: string;
  category: MessageCategory;
  priority: MessagePriority;
  status: MessageStatus;
  daysAgo: number;
  linkBooking?: boolean;
  /** Alternating conversation, first line from the customer. `A:` marks an admin line. */
  lines: string[];
}

const THREADS: ThreadTemplate[] = [
  {
    customer: 0,
    subject: 'Child seat for my booking',
    category: 'booking',
    priority: 'normal',
    status: 'replied',
    daysAgo: 12,
    linkBooking: true,
    lines: [
      'Hello, can you add a child seat (age 3) to my booking?',
      'A: Of course, a child seat has been added at no extra charge.',
      'Thank you! Is it ISOFIX?',
      'A: Yes, all our child seats are ISOFIX.',
    ],
  },
  {
    customer: 0,
    subject: 'Invoice with company details',
    category: 'payment',
    priority: 'low',
    status: 'closed',
    daysAgo: 30,
    lines: [
      'Could you issue the invoice to my company (Acme Ltd, VAT 1234567890)?',
      'A: Done, the corrected invoice is on its way by e-mail.',
      'Received, thanks.',
    ],
  },
  {
    customer: 0,
    subject: 'Late arrival at the airport',
    category: 'booking',
    priority: 'high',
    status: 'pending',
    daysAgo: 1,
    linkBooking: true,
    lines: ['My flight is delayed by two hours. Will the car still be waiting?'],
  },
  {
    customer: 1,
    subject: 'Deposit not refunded yet',
    category: 'payment',
    priority: 'urgent',
    status: 'pending',
    daysAgo: 3,
    lines: [
      'I returned the car 10 days ago and the deposit is still blocked on my card.',
      'A: Sorry for the delay, we released it today; banks take 3-5 working days.',
      'It is still not there. Can you send a confirmation from the bank?',
    ],
  },
  {
    customer: 1,
    subject: 'App does not show my booking',
    category: 'technical',
    priority: 'normal',
    status: 'replied',
    daysAgo: 6,
    lines: [
      'The mobile app shows no bookings although I have one.',
      'A: Please log out and in again; the app caches the list for a few minutes.',
    ],
  },
  {
    customer: 1,
    subject: 'Dirty car at pickup',
    category: 'complaint',
    priority: 'high',
    status: 'closed',
    daysAgo: 45,
    lines: [
      'The car was not cleaned when I picked it up.',
      'A: We apologise. A 10 % voucher has been added to your account.',
      'Thanks, that is fair.',
      'A: Thank you for your patience. Closing this conversation.',
    ],
  },
  {
    customer: 2,
    subject: 'One-way rental possible?',
    category: 'general',
    priority: 'normal',
    status: 'replied',
    daysAgo: 8,
    lines: [
      'Can I pick the car up in Istanbul and return it in Antalya?',
      'A: Yes, one-way rentals between our offices are possible with a drop-off fee.',
    ],
  },
  {
    customer: 2,
    subject: 'Change of pickup time',
    category: 'booking',
    priority: 'normal',
    status: 'pending',
    daysAgo: 2,
    linkBooking: true,
    lines: [
      'Could I pick up at 08:00 instead of 10:00?',
      'A: 08:00 works. Updated.',
      'Great. And can I return it at 20:00 then?',
    ],
  },
  {
    customer: 3,
    subject: 'Feedback about the transfer driver',
    category: 'other',
    priority: 'low',
    status: 'closed',
    daysAgo: 20,
    lines: [
      'Just wanted to say the driver was excellent and on time!',
      'A: Thank you, we passed your kind words on to him.',
    ],
  },
  {
    customer: 3,
    subject: 'Card payment declined',
    category: 'payment',
    priority: 'high',
    status: 'replied',
    daysAgo: 4,
    lines: [
      'My card was declined three times on the payment page.',
      'A: The bank refused a 3-D Secure check. Please try again or pay by bank transfer.',
    ],
  },
  {
    customer: 4,
    subject: 'Insurance coverage question',
    category: 'general',
    priority: 'normal',
    status: 'pending',
    daysAgo: 0,
    lines: ['Does the full insurance cover tyres and windscreen?'],
  },
  {
    customer: 4,
    subject: 'Booking confirmation not received',
    category: 'technical',
    priority: 'urgent',
    status: 'replied',
    daysAgo: 5,
    linkBooking: true,
    lines: [
      'I paid but did not get any confirmation e-mail.',
      'A: Your booking is confirmed; we re-sent the e-mail. Please check your spam folder.',
      'Found it in spam, thanks.',
      'A: Glad it arrived. Have a good trip!',
    ],
  },
  {
    customer: 5,
    subject: 'Wrong car category delivered',
    category: 'complaint',
    priority: 'urgent',
    status: 'pending',
    daysAgo: 1,
    lines: [
      'I booked an SUV and got a compact car.',
      'A: We are sorry. An SUV will be delivered to your hotel tomorrow morning.',
      'Tomorrow is too late, I need it today.',
    ],
  },
  {
    customer: 5,
    subject: 'Extend my rental by two days',
    category: 'booking',
    priority: 'normal',
    status: 'closed',
    daysAgo: 15,
    linkBooking: true,
    lines: [
      'Can I keep the car two more days?',
      'A: Yes, the extension is booked and the difference was charged.',
      'Perfect.',
    ],
  },
];

async function demoCustomers(db: Db): Promise<{ id: number; name: string; email: string; user_id: number | null }[]> {
  return rows(
    db,
    sql`SELECT id::int AS id, name, email, user_id::int AS user_id FROM rental_customers ORDER BY id LIMIT 6`,
  );
}

/** Gives the first demo customers a customer-role login (login = e-mail, password DEMO_CUSTOMER_PASSWORD). */
async function ensureLogins(
  platform: Platform,
  customers: { id: number; name: string; email: string; user_id: number | null }[],
): Promise<void> {
  for (const c of customers.slice(0, DEMO_LOGINS)) {
    if (c.user_id !== null) continue;
    let user = await platform.auth.findUser(c.email);
    if (!user) {
      const login = /^[A-Za-z0-9._@-]{2,60}$/.test(c.email) ? c.email : `customer${c.id}`;
      user = await platform.auth.createUser({
        login,
        email: c.email,
        role: 'customer',
        password: DEMO_CUSTOMER_PASSWORD,
        displayName: c.name,
      });
    }
    await platform.db.execute(
      sql`UPDATE rental_customers SET user_id = ${user.id}, updated_at = now() WHERE id = ${c.id} AND user_id IS NULL`,
    );
    c.user_id = user.id;
  }
}

/**
 * ~40 demo messages in 14 threads across statuses, priorities and categories for the existing demo customers.
 * Idempotent: a thread whose (customer, subject) already exists is skipped.
 */
export async function seedMessages(platform: Platform): Promise<void> {
  const customers = await demoCustomers(platform.db);
  if (customers.length === 0) {
    platform.log.info('rental admin demo: no customers yet, no demo messages');
    return;
  }
  await ensureLogins(platform, customers);
  const admin = await one<{ id: number }>(
    platform.db,
    sql`SELECT id::int AS id FROM rova_users WHERE role = 'administrator' ORDER BY id LIMIT 1`,
  );
  const now = Date.now();
  for (const tpl of THREADS) {
    const c = customers[tpl.customer % customers.length]!;
    const exists = await one<{ id: number }>(
      platform.db,
      sql`SELECT id::int AS id FROM rental_messages WHERE parent_id IS NULL AND customer_id = ${c.id} AND subject = ${tpl.subject}`,
    );
    if (exists) continue;
    await platform.transaction(async (tx) => {
      const booking = tpl.linkBooking
        ? await one<{ id: number }>(
            tx,
            sql`SELECT id::int AS id FROM rental_bookings WHERE customer_id = ${c.id} ORDER BY created_at DESC, id DESC LIMIT 1`,
          )
        : undefined;
      const start = now - tpl.daysAgo * 86_400_000 - 6 * 3_600_000;
      let threadId: number | null = null;
      let parentId: number | null = null;
      for (const [i, line] of tpl.lines.entries()) {
        const fromAdmin = line.startsWith('A: ');
        const isLast = i === tpl.lines.length - 1;
        const id: number = await insertMessage(tx, {
          threadId,
          parentId,
          customerId: c.id,
          sender: fromAdmin ? 'admin' : 'customer',
          authorUserId: fromAdmin ? (admin?.id ?? null) : c.user_id,
          customerName: c.name,
          customerEmail: c.email,
          subject: threadId === null ? tpl.subject : `Re: ${tpl.subject}`,
          body: fromAdmin ? line.slice(3) : line,
          status: tpl.status,
          priority: tpl.priority,
          category: tpl.category,
          bookingId: booking?.id ?? null,
          createdAt: new Date(start + i * 47 * 60_000),
          // Everything but the newest message has been read by the other side.
          isRead: !isLast,
        });
        threadId ??= id;
        parentId = id;
      }
    });
  }
}
