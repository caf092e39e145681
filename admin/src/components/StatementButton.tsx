import { api, toApiError } from '../api/client';
import { useToast } from './Toast';

/** The statement PDF through the client (it carries the nonce), saved under its PS-YYYY-NNNN name. */
export async function downloadStatement(id: number, number: string): Promise<void> {
  const r = await api.GET('/wp-json/rova-rental/v2/ledger/payouts/{id}/statement', {
    params: { path: { id } },
    parseAs: 'blob',
  });
  if (!r.response.ok || !r.data) throw toApiError(r.response.status, r.error);
  const url = URL.createObjectURL(r.data as Blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${number}.pdf`;
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
