import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { ApiError } from '../api/client';
import { useSession } from '../api/session';
import { FormField } from '../components/FormField';

/** `/admin/login?next=/bookings/42`: after logging in the user lands where the session ran out (App's AfterLogin). */
export function Login() {
  const { login, state } = useSession();
  const loc = useLocation();
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const expired =
    (loc.state as { expired?: boolean } | null)?.expired === true || (state.status === 'anonymous' && state.expired);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The session becomes ready and App's /login route sends the user on to ?next=.
      await login(user, password);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not reach the server. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <form
        onSubmit={(e) => void submit(e)}
        className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        aria-labelledby="login-title"
      >
        <h1 id="login-title" className="mb-4 text-xl font-semibold">
          Rova admin — log in
        </h1>
        {expired && !error && (
          <p
            role="status"
            className="mb-3 rounded bg-amber-100 p-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            Your session has ended. Log in again to continue.
          </p>
        )}
        {error && (
          <p
            role="alert"
            className="mb-3 rounded bg-red-100 p-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
          >
            {error}
          </p>
        )}
        <FormField label="Login or email">
          <input
            className="input w-full"
            name="login"
            autoComplete="username"
            required
            value={user}
            onChange={(e) => setUser(e.target.value)}
          />
        </FormField>
        <FormField label="Password">
          <input
            className="input w-full"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </FormField>
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </main>
  );
}
