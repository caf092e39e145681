import { api, toApiError } from '../api/client';
import { useToast } from './Toast';

/** The statement PDF through the client (it carries the nonce), saved under its PS-YYYY-NNNN name. */
export async function downloadStatement(id: number, number: string): Promise<void> {
  const r = await api.GET('/wp-json/rova-rental/v2/ledger/payouts/{id}/statement', {
    params: { path: { id } },
    parseAs: 'blob',
  });
  if (!r.response.ok || !r.data) throw toApiError(r.response.status, r.error);
  save(r.data as Blob, `${number}.pdf`);
}

/** The statement's lines as CSV (opening balance, every movement, closing balance), under the server's file name. */
export async function downloadStatementLines(id: number, fallback: string): Promise<void> {
  const r = await api.GET('/wp-json/rova-rental/v2/ledger/payouts/{id}/lines.csv', {
    params: { path: { id } },
    parseAs: 'blob',
  });
  if (!r.response.ok || !r.data) throw toApiError(r.response.status, r.error);
  const named = /filename="([^"]+)"/.exec(r.response.headers.get('content-disposition') ?? '')?.[1];
  save(r.data as Blob, named ?? fallback);
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A payout's statement (PS-YYYY-NNNN) as a PDF rendered on the server: the same document for the vendor and the operator. */
export function StatementButton({ payout }: { payout: { id: number; statement_number: string | null } }) {
  const toast = useToast();
  if (!payout.statement_number) return <>—</>;
  const number = payout.statement_number;
  return (
    <button
      type="button"
      className="btn"
      aria-label={`Download statement ${number} (PDF)`}
      onClick={() =>
        void downloadStatement(payout.id, number).catch((e: unknown) =>
          toast(e instanceof Error ? e.message : String(e), 'error'),
        )
      }
    >
      {number} (PDF)
    </button>
  );
}

/** A payout's statement lines as CSV, for any payout (the lines exist from the request on). */
export function StatementLinesButton({ payout }: { payout: { id: number; statement_no: number } }) {
  const toast = useToast();
  return (
    <button
      type="button"
      className="btn"
      aria-label={`Download the lines of payout #${payout.statement_no} (CSV)`}
      onClick={() =>
        void downloadStatementLines(payout.id, `payout-${payout.statement_no}.csv`).catch((e: unknown) =>
          toast(e instanceof Error ? e.message : String(e), 'error'),
        )
      }
    >
      Lines (CSV)
    </button>
  );
}
