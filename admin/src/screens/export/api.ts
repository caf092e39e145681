import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, toApiError, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';

export type ExportRequest =
  paths['/wp-json/rova-rental/v1/admin/export']['post']['requestBody']['content']['application/json'];
export type PreviewRequest =
  paths['/wp-json/rova-rental/v1/admin/export/preview']['post']['requestBody']['content']['application/json'];

export const useExportPreview = (body: PreviewRequest) =>
  useQuery({
    queryKey: ['export', 'preview', body],
    queryFn: () => unwrapRental(api.POST('/wp-json/rova-rental/v1/admin/export/preview', { body })),
    placeholderData: keepPreviousData,
  });

export const useExportHistory = (q: { page: number; per_page: number }) =>
  useQuery({
    queryKey: ['export', 'history', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/admin/export/history', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });

/** Runs the export and hands the file to the browser (the answer is the file itself, named by Content-Disposition). */
export function useDownloadExport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: ExportRequest) => {
      const r = await api.POST('/wp-json/rova-rental/v1/admin/export', { body, parseAs: 'blob' });
      if (!r.response.ok || !r.data) {
        let parsed: unknown = r.error;
        if (parsed instanceof Blob) parsed = JSON.parse(await parsed.text()) as unknown;
        throw toApiError(r.response.status, parsed);
      }
      const name =
        /filename="?([^";]+)"?/.exec(r.response.headers.get('content-disposition') ?? '')?.[1] ??
        `export.${body.format}`;
      const url = URL.createObjectURL(r.data as Blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return name;
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['export', 'history'] }),
  });
}

export function useDeleteExport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrapRental(api.DELETE('/wp-json/rova-rental/v1/admin/export/{id}', { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['export', 'history'] }),
  });
}
