import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { useStore } from '../../api/session';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { applyServerErrors, FormField } from '../../components/FormField';
import { SearchBox } from '../../components/SearchBox';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDateTime } from '../../lib/format';
import { withFilter } from '../../lib/table-state';
import { useInbox, useReply, useSetStatus, useThread, type InboxQuery, type ThreadStatus } from './api';

export default function Messages() {
  return (
    <Routes>
      <Route index element={<Inbox />} />
      <Route path=":id" element={<Thread />} />
    </Routes>
  );
}

const FILTERS = ['status', 'priority', 'category', 'search'] as const;
const STATUSES: ThreadStatus[] = ['pending', 'replied', 'closed'];
const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
const CATEGORIES = ['general', 'booking', 'payment', 'technical', 'complaint', 'other'] as const;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

interface Row {
  id: number;
  subject: string;
  preview: string;
  status: ThreadStatus;
  priority: string;
  category: string;
  customer_name: string;
  message_count: number;
  unread_count: number;
  last_message_at: string;
}

function Inbox() {
  const store = useStore();
  const navigate = useNavigate();
  const [state, setState] = useTableState(FILTERS);
  const f = state.filters;
  const q = useInbox({
    page: state.page,
    per_page: state.perPage,
    ...(f.status ? { status: f.status as ThreadStatus } : {}),
    ...(f.priority ? { priority: f.priority as NonNullable<InboxQuery['priority']> } : {}),
    ...(f.category ? { category: f.category as NonNullable<InboxQuery['category']> } : {}),
    ...(f.search ? { search: f.search } : {}),
  });
  const columns: Column<Row>[] = [
    {
      id: 'subject',
      header: 'Subject',
      cell: (m) => (
        <Link
          to={`/messages/${m.id}`}
          className={`underline ${m.unread_count > 0 ? 'font-semibold' : ''}`}
          onClick={(e) => e.stopPropagation()}
        >
          {m.subject}
        </Link>
      ),
    },
    { id: 'customer', header: 'Customer', cell: (m) => m.customer_name },
    { id: 'status', header: 'Status', cell: (m) => cap(m.status) },
    { id: 'priority', header: 'Priority', cell: (m) => cap(m.priority) },
    {
      id: 'count',
      header: 'Messages',
      numeric: true,
      cell: (m) => `${m.message_count}${m.unread_count ? ` (${m.unread_count} unread)` : ''}`,
    },
    { id: 'last', header: 'Last message', cell: (m) => formatDateTime(m.last_message_at, store.timezone) },
  ];
  const select = (k: (typeof FILTERS)[number], label: string, values: readonly string[]) => (
    <label className="flex flex-col text-sm">
      <span className="mb-1 font-medium">{label}</span>
      <select className="input" value={f[k] ?? ''} onChange={(e) => setState(withFilter(state, k, e.target.value))}>
        <option value="">Any</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {cap(v)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div>
      <PageHeader title="Messages" />
      <div
        className="mb-3 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4"
        role="search"
        aria-label="Filter messages"
      >
        <SearchBox label="Search" value={f.search ?? ''} onChange={(v) => setState(withFilter(state, 'search', v))} />
        {select('status', 'Status', STATUSES)}
        {select('priority', 'Priority', PRIORITIES)}
        {select('category', 'Category', CATEGORIES)}
      </div>
      <DataTable
        label="Message threads"
        columns={columns}
        rows={q.data?.items as Row[] | undefined}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(m) => String(m.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No messages match these filters."
        onRowClick={(m) => navigate(`/messages/${m.id}`)}
      />
    </div>
  );
}

function Thread() {
  const id = Number(useParams().id);
  const store = useStore();
  const toast = useToast();
  const q = useThread(id);
  const reply = useReply(id);
  const setStatus = useSetStatus(id);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ message: string; close_thread: boolean }>({
    defaultValues: { message: '', close_thread: false },
  });
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading />;
  const { thread, message, replies } = q.data;
  const all = [message, ...replies];
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      await reply.mutateAsync({ message: v.message, ...(v.close_thread ? { close_thread: true } : {}) });
      form.reset();
      toast('Reply sent');
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, ['message']));
    }
  });
  return (
    <div className="max-w-3xl">
      <p className="mb-2 text-sm">
        <Link to="/messages" className="underline">
          ← Messages
        </Link>
      </p>
      <PageHeader
        title={thread.subject}
        actions={
          <label className="flex items-center gap-2 text-sm">
            Status
            <select
              className="input"
              value={thread.status}
              disabled={setStatus.isPending}
              onChange={(e) => {
                const s = e.target.value as ThreadStatus;
                setStatus.mutate(s, {
                  onSuccess: () => toast(`Thread marked ${s}`),
                  onError: (err) => toast(err.message, 'error'),
                });
              }}
            >
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {cap(s)}
                </option>
              ))}
            </select>
          </label>
        }
      />
      <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
        {thread.customer_name} &lt;{thread.customer_email}&gt; · {cap(thread.category)} · {cap(thread.priority)}{' '}
        priority
        {thread.booking_id !== null && (
          <>
            {' · '}
            <Link to={`/bookings/${thread.booking_id}`} className="underline">
              booking #{thread.booking_id}
            </Link>
          </>
        )}
      </p>
      <ol className="space-y-3" data-testid="thread">
        {all.map((m) => (
          <li
            key={m.id}
            className={`card ${m.sender === 'admin' ? 'ml-6 border-teal-300 dark:border-teal-800' : 'mr-6'}`}
          >
            <div className="mb-1 text-sm text-slate-700 dark:text-slate-300">
              <strong>{m.author_name}</strong> ({m.sender}) · {formatDateTime(m.created_at, store.timezone)}
            </div>
            <p className="whitespace-pre-wrap">{m.body}</p>
          </li>
        ))}
      </ol>
      <form onSubmit={(e) => void onSubmit(e)} className="card mt-4" noValidate>
        <h2 className="mb-2 font-semibold">Reply</h2>
        {formError && (
          <p role="alert" className="mb-2 text-red-700 dark:text-red-400">
            {formError}
          </p>
        )}
        <FormField label="Your reply" error={form.formState.errors.message?.message}>
          <textarea
            className="input w-full"
            rows={4}
            {...form.register('message', { required: 'Write a reply first' })}
          />
        </FormField>
        <label className="mb-3 flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('close_thread')} /> Close the thread after replying
        </label>
        <button type="submit" className="btn btn-primary" disabled={reply.isPending}>
          {reply.isPending ? 'Sending…' : 'Send reply'}
        </button>
      </form>
    </div>
  );
}
