import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { newIdempotencyKey } from '../api/idempotency';
import { Combobox } from './Combobox';
import { ConfirmDialog } from './ConfirmDialog';
import { DataTable, useTableState, type Column } from './DataTable';
import { FormField, applyServerErrors } from './FormField';
import { SlideOver } from './SlideOver';
import { PageHeader } from './State';
import { useToast } from './Toast';
import { withFilter } from '../lib/table-state';
import { toBody, type FieldSpec, type Values } from './entity-body';

export type { FieldSpec } from './entity-body';

// One list + slide-over form + delete confirmation for the plain admin CRUD resources (vehicles, locations,
// transfer routes, pricing rules). Each screen supplies its columns, filters, fields and API calls.

export type EntityRow = { id: number } & Record<string, unknown>;

export interface EntityPage {
  items: EntityRow[];
  total: number;
}

export interface FilterSpec {
  key: string;
  label: string;
  kind: 'select' | 'text';
  options?: readonly string[];
}

export interface EntityApi {
  list(q: { page: number; per_page: number } & Record<string, string | number>): Promise<EntityPage>;
  /** `key`: the form's Idempotency-Key (see api/idempotency.ts). */
  create(body: Record<string, unknown>, key: string): Promise<unknown>;
  update(id: number, body: Record<string, unknown>): Promise<unknown>;
  remove(id: number): Promise<unknown>;
}

interface Props {
  screen: string;
  title: string;
  singular: string;
  columns: Column<EntityRow>[];
  filters: FilterSpec[];
  fields: FieldSpec[];
  api: EntityApi;
  nameOf(row: EntityRow): string;
  /** Values of a new record's form. */
  defaults?: Record<string, unknown>;
  /** Shown under the form of an existing record (e.g. a vehicle's photos). */
  extra?: (row: EntityRow) => ReactNode;
}

function toValues(fields: FieldSpec[], row: Record<string, unknown> | undefined): Values {
  const v: Values = {};
  for (const f of fields) {
    const x = row?.[f.name];
    v[f.name] = f.kind === 'checkbox' ? x === true : x === null || x === undefined ? '' : String(x);
  }
  return v;
}

function EntityForm({
  fields,
  initial,
  submitLabel,
  onSave,
}: {
  fields: FieldSpec[];
  initial: Values;
  submitLabel: string;
  onSave(body: Record<string, unknown>, key: string): Promise<unknown>;
}) {
  const form = useForm<Values>({ defaultValues: initial });
  // a form is mounted per record it edits or creates: its key lives as long as it does
  const [key] = useState(newIdempotencyKey);
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      await onSave(toBody(fields, v), key);
    } catch (e) {
      setFormError(
        applyServerErrors(
          e,
          form.setError,
          fields.map((f) => f.name),
        ),
      );
    }
  });
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      {fields.map((f) => {
        const error = form.formState.errors[f.name]?.message;
        const reg = form.register(f.name, f.required ? { required: `${f.label} is required` } : {});
        if (f.kind === 'checkbox') {
          return (
            <div key={f.name} className="mb-3 flex items-center gap-2">
              <input type="checkbox" id={`f-${f.name}`} {...reg} />
              <label htmlFor={`f-${f.name}`} className="text-sm font-medium">
                {f.label}
              </label>
            </div>
          );
        }
        if (f.kind === 'picker' && f.picker) {
          const source = f.picker;
          return (
            <Controller
              key={f.name}
              control={form.control}
              name={f.name}
              rules={f.required ? { required: `${f.label} is required` } : {}}
              render={({ field }) => (
                <Combobox
                  label={f.label}
                  source={source}
                  value={typeof field.value === 'string' && field.value !== '' ? Number(field.value) : null}
                  onChange={(id) => field.onChange(id === null ? '' : String(id))}
                  onBlur={field.onBlur}
                  error={error}
                  {...(f.hint ? { hint: f.hint } : {})}
                />
              )}
            />
          );
        }
        return (
          <FormField key={f.name} label={f.label} error={error} {...(f.hint ? { hint: f.hint } : {})}>
            {f.kind === 'select' ? (
              <select className="input w-full" {...reg}>
                {!f.required && <option value="">—</option>}
                {(f.options ?? []).map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : (
              <input
                className="input w-full"
                type={f.kind === 'number' ? 'number' : f.kind === 'date' ? 'date' : 'text'}
                step={f.step ?? (f.kind === 'number' ? 'any' : undefined)}
                {...reg}
              />
            )}
          </FormField>
        );
      })}
      {formError && (
        <p role="alert" className="mb-3 text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Saving…' : submitLabel}
      </button>
    </form>
  );
}

export function EntityCrud(p: Props) {
  const qc = useQueryClient();
  const toast = useToast();
  const [state, setState] = useTableState(p.filters.map((f) => f.key));
  const query = { page: state.page, per_page: state.perPage, ...state.filters };
  const list = useQuery({
    queryKey: [p.screen, 'list', query],
    queryFn: () => p.api.list(query),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<EntityRow | 'new' | null>(null);
  const invalidate = () => qc.invalidateQueries({ queryKey: [p.screen] });
  const save = useMutation({
    mutationFn: ({ body, key }: { body: Record<string, unknown>; key: string }) =>
      editing === 'new' || editing === null ? p.api.create(body, key) : p.api.update(editing.id, body),
    onSuccess: async () => {
      toast(editing === 'new' ? `${p.singular} created` : `${p.singular} saved`);
      setEditing(null);
      await invalidate();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => p.api.remove(id),
    onSuccess: async () => {
      toast(`${p.singular} deleted`);
      await invalidate();
    },
  });
  const columns: Column<EntityRow>[] = [
    ...p.columns,
    {
      id: 'actions',
      header: 'Actions',
      cell: (r) => (
        <div className="flex gap-2">
          <button type="button" className="btn" onClick={() => setEditing(r)} aria-label={`Edit ${p.nameOf(r)}`}>
            Edit
          </button>
          <ConfirmDialog
            danger
            trigger={
              <button type="button" className="btn btn-danger" aria-label={`Delete ${p.nameOf(r)}`}>
                Delete
              </button>
            }
            title={`Delete ${p.singular.toLowerCase()}?`}
            description={`“${p.nameOf(r)}” will be deleted. This cannot be undone.`}
            confirmLabel="Delete"
            onConfirm={() => remove.mutateAsync(r.id)}
          />
        </div>
      ),
    },
  ];
  return (
    <div>
      <PageHeader
        title={p.title}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
            New {p.singular.toLowerCase()}
          </button>
        }
      />
      {p.filters.length > 0 && (
        <div className="mb-3 flex flex-wrap gap-3" role="search" aria-label={`Filter ${p.title.toLowerCase()}`}>
          {p.filters.map((f) => (
            <label key={f.key} className="flex flex-col text-sm">
              {f.label}
              {f.kind === 'select' ? (
                <select
                  className="input"
                  value={state.filters[f.key] ?? ''}
                  onChange={(e) => setState(withFilter(state, f.key, e.target.value))}
                >
                  <option value="">All</option>
                  {(f.options ?? []).map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  className="input"
                  type="search"
                  defaultValue={state.filters[f.key] ?? ''}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') setState(withFilter(state, f.key, e.currentTarget.value.trim()));
                  }}
                  onBlur={(e) => {
                    if ((state.filters[f.key] ?? '') !== e.currentTarget.value.trim())
                      setState(withFilter(state, f.key, e.currentTarget.value.trim()));
                  }}
                />
              )}
            </label>
          ))}
        </div>
      )}
      <DataTable
        label={p.title}
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        state={state}
        onState={setState}
        rowKey={(r) => String(r.id)}
        loading={list.isLoading}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={`No ${p.title.toLowerCase()} match.`}
      />
      <SlideOver
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? `New ${p.singular.toLowerCase()}` : editing ? `Edit ${p.nameOf(editing)}` : ''}
      >
        {editing !== null && (
          <EntityForm
            key={editing === 'new' ? 'new' : editing.id}
            fields={p.fields}
            initial={toValues(p.fields, editing === 'new' ? p.defaults : editing)}
            submitLabel={editing === 'new' ? 'Create' : 'Save'}
            onSave={(body, key) => save.mutateAsync({ body, key })}
          />
        )}
        {editing !== null && editing !== 'new' && p.extra?.(editing)}
      </SlideOver>
    </div>
  );
}
