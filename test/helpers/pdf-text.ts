import { inflateSync } from 'node:zlib';

/** One text-showing operation of a PDF page: where it starts and what it says. */
export interface PdfRun {
  page: number;
  x: number;
  y: number;
  text: string;
}

// WinAnsiEncoding where it differs from Latin-1 (the characters pdfkit's standard fonts write here)
const WIN_ANSI: Record<number, string> = { 0x96: '–', 0x97: '—', 0x95: '•', 0x80: '€', 0x92: '’', 0xb7: '·' };

/**
 * The text of a PDF written by pdfkit with its standard fonts: every content stream (one per page, in order),
 * inflated, each `Tm … TJ` pair read as a run at its position. Enough to read back what Rova's statements print;
 * not a general PDF parser.
 */
export function pdfRuns(pdf: Buffer): PdfRun[] {
  const raw = pdf.toString('latin1');
  const out: PdfRun[] = [];
  // the stream's own last byte may be a CR (1 in 256 deflated streams end so): read it as data first, and as the
  // CR of a CRLF before `endstream` only when the stream does not inflate with it
  const streams = /stream\r?\n([\s\S]*?)\nendstream/g;
  let page = 0;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    const body = inflated(m[1]!) ?? (m[1]!.endsWith('\r') ? inflated(m[1]!.slice(0, -1)) : undefined);
    if (body === undefined) continue; // not a deflated content stream
    if (!body.includes(' TJ')) continue;
    page += 1;
    const ops = /1 0 0 1 ([\d.-]+) ([\d.-]+) Tm[\s\S]*?\[([^\]]*)\] TJ/g;
    for (let o = ops.exec(body); o; o = ops.exec(body)) {
      const text = [...o[3]!.matchAll(/<([0-9a-f]*)>/g)]
        .map((h) => [...Buffer.from(h[1]!, 'hex')].map((b) => WIN_ANSI[b] ?? String.fromCharCode(b)).join(''))
        .join('');
      out.push({ page, x: Number(o[1]), y: Number(o[2]), text });
    }
  }
  return out;
}

function inflated(data: string): string | undefined {
  try {
    return inflateSync(Buffer.from(data, 'latin1')).toString('latin1');
  } catch {
    return undefined;
  }
}

/** The runs grouped into lines (same page, same baseline), top to bottom, each line's runs left to right. */
export function pdfLines(pdf: Buffer): PdfRun[][] {
  const by = new Map<string, PdfRun[]>();
  for (const r of pdfRuns(pdf)) {
    const k = `${r.page}:${r.y.toFixed(2)}`;
    by.set(k, [...(by.get(k) ?? []), r]);
  }
  return [...by.values()]
    .sort((a, b) => a[0]!.page - b[0]!.page || b[0]!.y - a[0]!.y)
    .map((l) => l.sort((a, b) => a.x - b.x));
}
