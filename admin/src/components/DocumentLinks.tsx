import { api, toApiError } from '../api/client';
import { useToast } from './Toast';

interface VendorDocument {
  id: number;
  label: string;
  file_name: string;
  mime: string;
}

const EXT: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/**
 * A vendor document's bytes through the client: a plain link would carry the session cookie but not the nonce, and
 * the server answers a cookie without its nonce as a visitor (401), so the link saved the error as JSON.
 */
async function documentBlob(id: number): Promise<Blob> {
  const r = await api.GET('/wp-json/rova-rental/v1/vendor-documents/{id}', {
    params: { path: { id } },
    parseAs: 'blob',
  });
  if (!r.response.ok || !r.data) throw toApiError(r.response.status, r.error);
  return r.data as Blob;
}

/** Open (a new tab shows a PDF or an image as the browser does) and Download, for one application document. */
export function DocumentLinks({ doc }: { doc: VendorDocument }) {
  const toast = useToast();
  const fail = (e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error');
  const open = () => {
    // opened now, within the click (a tab opened after the fetch would be taken for a pop-up), filled when it arrives
    const tab = window.open('', '_blank');
    documentBlob(doc.id)
      .then((b) => {
        const url = URL.createObjectURL(new Blob([b], { type: doc.mime }));
        if (tab) tab.location.href = url;
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      })
      .catch((e: unknown) => {
        tab?.close();
        fail(e);
      });
  };
  const download = () =>
    documentBlob(doc.id)
      .then((b) => {
        const url = URL.createObjectURL(b);
        const a = document.createElement('a');
        a.href = url;
        a.download = `document-${doc.id}.${EXT[doc.mime] ?? 'bin'}`;
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      })
      .catch(fail);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className="font-medium">{doc.label}</span>
      <span className="text-slate-600 dark:text-slate-400">({doc.file_name})</span>
      <button type="button" className="btn" aria-label={`Open ${doc.label}`} onClick={open}>
        Open
      </button>
      <button type="button" className="btn" aria-label={`Download ${doc.label}`} onClick={() => void download()}>
        Download
      </button>
    </span>
  );
}
