import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { newIdempotencyKey } from '../../api/idempotency';
import { useMe, useStore } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { applyServerErrors, FormField } from '../../components/FormField';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDateTime } from '../../lib/format';
import { withFilter } from '../../lib/table-state';
import { DriverTerms } from './DriverTerms';
import {
  useApiKeys,
  useAudit,
  useCreateKey,
  useDeliveries,
  useRevokeKey,
  useUsers,
  useWebhooks,
  type AuditQuery,
} from './api';

const TABS = [
  { id: 'keys', label: 'API keys' },
  { id: 'users', label: 'Users' },
  { id: 'audit', label: 'Audit log' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'driver', label: 'Driver and terms' },
] as const;
type Tab = (typeof TABS)[number]['id'];

export default function System() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS.find((t) => t.id === params.get('tab'))?.id ?? 'keys') as Tab;
  return (
    <div>
      <PageHeader title="System" />
      <div
        role="tablist"
        aria-label="System sections"
        className="mb-4 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800"
      >
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${tab === t.id ? 'border-teal-700 font-semibold' : 'border-transparent'}`}
            onClick={() => setParams(new URLSearchParams({ tab: t.id }))}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'keys' && <ApiKeys />}
        {tab === 'users' && <Users />}
        {tab === 'audit' && <Audit />}
        {tab === 'webhooks' && <Webhooks />}
        {tab === 'driver' && <DriverTerms />}
      </div>
    </div>
  );
}

interface KeyRow {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  status: string;
  user_login?: string;
  last_used_at: string | null;
  created_at: string;
}

function ApiKeys() {
  const store = useStore();
  const me = useMe();
  const toast = useToast();
  const [state, setState] = useTableState([]);
  const q = useApiKeys(state.page, state.perPage);
  const create = useCreateKey();
  const revoke = useRevokeKey();
  const [shown, setShown] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [key, setKey] = useState(newIdempotencyKey);
  const form = useForm<{ name: string; user: string; write: boolean }>({
    defaultValues: { name: '', user: me.user.login, write: false },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const r = await create.mutateAsync({
        key,
        body: { name: v.name, user: v.user, scopes: v.write ? ['read', 'write'] : ['read'] },
      });
      setKey(newIdempotencyKey());
      setShown(r.key ?? null);
      form.reset({ name: '', user: me.user.login, write: false });
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, ['name', 'user']));
    }
  });
  const columns: Column<KeyRow>[] = [
    { id: 'name', header: 'Name', cell: (k) => k.name || '—' },
    { id: 'prefix', header: 'Key', cell: (k) => (k.prefix ? <code>{k.prefix}…</code> : '—') },
    { id: 'user', header: 'User', cell: (k) => k.user_login ?? '' },
    { id: 'scopes', header: 'Scopes', cell: (k) => k.scopes.join(', ') },
    { id: 'status', header: 'Status', cell: (k) => <span data-testid="key-status">{k.status}</span> },
    { id: 'used', header: 'Last used', cell: (k) => formatDateTime(k.last_used_at, store.timezone) },
    {
      id: 'actions',
      header: 'Actions',
      cell: (k) =>
        k.status === 'active' ? (
          <ConfirmDialog
            trigger={
              <button type="button" className="btn btn-danger" aria-label={`Revoke key ${k.name || k.id}`}>
                Revoke
              </button>
            }
            title={`Revoke key “${k.name || k.prefix}”?`}
            description="Programs using this key stop working at once."
            confirmLabel="Revoke"
            danger
            onConfirm={async () => {
              await revoke.mutateAsync(k.id);
              toast('Key revoked');
            }}
          />
        ) : null,
    },
  ];
  return (
    <div>
      <form onSubmit={(e) => void onSubmit(e)} className="card mb-4 flex flex-wrap items-end gap-3" noValidate>
        <div className="min-w-60 flex-1">
          <FormField label="New key name" error={form.formState.errors.name?.message}>
            <input className="input w-full" {...form.register('name', { required: 'Give the key a name' })} />
          </FormField>
        </div>
        <div className="min-w-48">
          <FormField label="For user (login or email)" error={form.formState.errors.user?.message}>
            <input className="input w-full" {...form.register('user', { required: 'Name the user the key acts as' })} />
          </FormField>
        </div>
        <label className="mb-4 flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('write')} /> Write access
        </label>
        <button type="submit" className="btn btn-primary mb-3" disabled={create.isPending}>
          Create key
        </button>
        {formError && (
          <p role="alert" className="w-full text-red-700 dark:text-red-400">
            {formError}
          </p>
        )}
      </form>
      {shown && (
        <div role="status" className="card mb-4 border-amber-400 bg-amber-50 dark:border-amber-700 dark:bg-amber-950">
          <p className="font-semibold">Copy the new key now: it is shown only once.</p>
          <code data-testid="new-key" className="mt-2 block break-all rounded bg-white p-2 dark:bg-slate-900">
            {shown}
          </code>
          <button type="button" className="btn mt-2" onClick={() => setShown(null)}>
            Done
          </button>
        </div>
      )}
      <DataTable
        label="API keys"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(k) => String(k.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No API keys."
      />
    </div>
  );
}

interface UserRow {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: string;
  created_at?: string;
}

function Users() {
  const store = useStore();
  const [state, setState] = useTableState(['role']);
  const role = state.filters.role as 'administrator' | 'shop_manager' | 'vendor' | 'customer' | undefined;
  const q = useUsers(state.page, state.perPage, role);
  const columns: Column<UserRow>[] = [
    { id: 'login', header: 'Login', cell: (u) => u.login },
    { id: 'name', header: 'Name', cell: (u) => u.display_name },
    { id: 'email', header: 'Email', cell: (u) => u.email },
    { id: 'role', header: 'Role', cell: (u) => u.role },
    { id: 'created', header: 'Created', cell: (u) => formatDateTime(u.created_at, store.timezone) },
  ];
  return (
    <div>
      <label className="mb-3 flex max-w-xs flex-col text-sm">
        <span className="mb-1 font-medium">Role</span>
        <select
          className="input"
          value={role ?? ''}
          onChange={(e) => setState(withFilter(state, 'role', e.target.value))}
        >
          <option value="">Any role</option>
          {['administrator', 'shop_manager', 'vendor', 'customer'].map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <DataTable
        label="Users"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(u) => String(u.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No users."
      />
    </div>
  );
}

interface AuditRow {
  id: number;
  at: string;
  actor_login: string | null;
  method: string;
  path: string;
  status: number;
  outcome: string;
  target: string | null;
}

function Audit() {
  const store = useStore();
  const [state, setState] = useTableState(['outcome', 'method']);
  const f = state.filters;
  const query: AuditQuery = {
    page: state.page,
    per_page: state.perPage,
    ...(f.outcome ? { outcome: f.outcome as NonNullable<AuditQuery['outcome']> } : {}),
    ...(f.method ? { method: f.method as NonNullable<AuditQuery['method']> } : {}),
  };
  const q = useAudit(query);
  const columns: Column<AuditRow>[] = [
    { id: 'at', header: 'When', cell: (r) => formatDateTime(r.at, store.timezone) },
    { id: 'actor', header: 'Who', cell: (r) => r.actor_login ?? '—' },
    { id: 'request', header: 'Request', cell: (r) => <code className="break-all">{`${r.method} ${r.path}`}</code> },
    { id: 'status', header: 'Status', numeric: true, cell: (r) => r.status },
    { id: 'outcome', header: 'Outcome', cell: (r) => r.outcome },
    { id: 'target', header: 'Target', cell: (r) => r.target ?? '' },
  ];
  return (
    <div>
      <div className="mb-3 flex flex-wrap gap-2">
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Outcome</span>
          <select
            className="input"
            value={f.outcome ?? ''}
            onChange={(e) => setState(withFilter(state, 'outcome', e.target.value))}
          >
            <option value="">Any</option>
            <option value="success">success</option>
            <option value="failure">failure</option>
            <option value="denied">denied</option>
          </select>
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Method</span>
          <select
            className="input"
            value={f.method ?? ''}
            onChange={(e) => setState(withFilter(state, 'method', e.target.value))}
          >
            <option value="">Any</option>
            {['POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DataTable
        label="Audit log"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(r) => String(r.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No audit entries match."
      />
    </div>
  );
}

function Webhooks() {
  const store = useStore();
  const q = useWebhooks();
  const [open, setOpen] = useState<number | null>(null);
  const deliveries = useDeliveries(open, 1);
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading />;
  if (q.data.length === 0)
    return <p>No webhook endpoints. Create one with POST /wp-json/rova/v1/webhooks (see the API reference).</p>;
  return (
    <div className="space-y-3">
      {q.data.map((w) => (
        <section key={w.id} className="card" aria-label={`Webhook ${w.url}`}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div>
              <div className="font-medium break-all">{w.url}</div>
              <div className="text-sm text-slate-700 dark:text-slate-300">
                {w.enabled ? 'Enabled' : `Disabled${w.disabled_reason ? `: ${w.disabled_reason}` : ''}`} ·{' '}
                {w.events.join(', ') || 'all events'}
              </div>
            </div>
            <button
              type="button"
              className="btn"
              aria-expanded={open === w.id}
              onClick={() => setOpen(open === w.id ? null : w.id)}
            >
              {open === w.id ? 'Hide deliveries' : 'Deliveries'}
            </button>
          </div>
          {open === w.id &&
            (deliveries.error ? (
              <ErrorState error={deliveries.error} onRetry={() => void deliveries.refetch()} />
            ) : !deliveries.data ? (
              <Loading />
            ) : deliveries.data.items.length === 0 ? (
              <p className="mt-2">No deliveries yet.</p>
            ) : (
              <ul className="mt-2 divide-y divide-slate-200 text-sm dark:divide-slate-800">
                {deliveries.data.items.map((d) => (
                  <li key={d.id} className="py-1">
                    {d.event_type} · {d.attempts} attempt(s) ·{' '}
                    {d.delivered_at
                      ? `delivered ${formatDateTime(d.delivered_at, store.timezone)}`
                      : (d.error ?? 'pending')}
                  </li>
                ))}
              </ul>
            ))}
        </section>
      ))}
    </div>
  );
}
