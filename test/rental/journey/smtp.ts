import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The whole message with quoted-printable soft breaks and escapes undone (good enough to search text). */
  decoded: string;
}

function decodeQp(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function decodeHeader(v: string): string {
  return v
    .replace(/=\?utf-8\?Q\?([^?]*)\?=/gi, (_, q: string) => decodeQp(q.replace(/_/g, ' ')))
    .replace(/\?=\s+=\?/g, '');
}

/** A real SMTP server on 127.0.0.1 (random port) that keeps what it receives. */
export async function startSmtp(): Promise<{
  url: string;
  mails: ReceivedMail[];
  waitFor(pred: (m: ReceivedMail) => boolean, ms?: number): Promise<ReceivedMail>;
  /** The next `n` messages are refused (451, try again later) after their data was sent. */
  refuse(n: number): void;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  let refusing = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusing > 0) {
          refusing -= 1;
          return cb(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const subj = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: decodeHeader(subj),
          decoded: decodeQp(raw),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(pred, ms = 10_000) {
      const end = Date.now() + ms;
      for (;;) {
        const m = mails.find(pred);
        if (m) return m;
        if (Date.now() > end) throw new Error(`no such mail arrived; got: ${mails.map((x) => x.subject).join(' | ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    refuse(n) {
      refusing = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
