// The PDF reader the statement tests use (test/helpers/pdf-text.ts): a content stream whose deflated bytes end in a
// CR (about 1 in 256 do, through their Adler-32 checksum) is read like any other. The reader once took that CR for the
// CRLF before `endstream`, found no text, and failed payout-statement.test.ts in a clean-clone run.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfLines } from '../helpers/pdf-text.js';

const hex = (s: string) => Buffer.from(s, 'latin1').toString('hex');
const content = (text: string) => `BT 1 0 0 1 72 700 Tm [<${hex(text)}>] TJ ET`;
const pdf = (stream: Buffer, eol: string) =>
  Buffer.concat([
    Buffer.from('%PDF-1.3\n1 0 obj\n<< /Filter /FlateDecode >>\nstream\n', 'latin1'),
    stream,
    Buffer.from(`${eol}endstream\nendobj\n%%EOF\n`, 'latin1'),
  ]);

describe('pdf-text reads every deflated content stream', () => {
  it('one whose last byte is a CR, and one followed by CRLF', () => {
    let text = '';
    let stream = Buffer.alloc(0);
    for (let i = 0; stream.at(-1) !== 0x0d; i++) {
      text = `Payout #${i}`;
      stream = deflateSync(content(text));
    }
    expect(pdfLines(pdf(stream, '\n')).map((l) => l.map((r) => r.text))).toEqual([[text]]);
    const plain = deflateSync(content('Opening balance'));
    expect(pdfLines(pdf(plain, '\r\n')).map((l) => l.map((r) => r.text))).toEqual([['Opening balance']]);
  });
});
