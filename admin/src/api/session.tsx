import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, setNonce, setUnauthorizedHandler, toApiError } from './client';
import type { paths } from './schema';

export type Me = paths['/wp-json/rova/v1/auth/me']['get']['responses']['200']['content']['application/json'];

export type SessionState =
  { status: 'loading' } | { status: 'anonymous'; expired: boolean } | { status: 'ready'; me: Me };

interface SessionApi {
  state: SessionState;
  login(login: string, password: string): Promise<void>;
  logout(): Promise<void>;
  can(cap: string): boolean;
}

const Ctx = createContext<SessionApi | null>(null);

/** Nonces live 12-24 h; refreshing hourly (and when a tab comes back after a while) keeps a long-open tab working. */
const REFRESH_MS = 60 * 60 * 1000;

async function loadMe(): Promise<Me> {
  const r = await api.GET('/wp-json/rova/v1/auth/me');
  if (!r.data) throw toApiError(r.response.status, r.error);
  return r.data;
}

async function fetchNonce(): Promise<boolean> {
  const r = await api.GET('/wp-json/rova/v1/auth/nonce');
  if (!r.data) return false;
  setNonce(r.data.nonce);
  return true;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const qc = useQueryClient();
  const lastRefresh = useRef(0);

  const expire = useCallback(() => {
    setNonce(null);
    qc.clear();
    setState((s) =>
      s.status === 'ready'
        ? { status: 'anonymous', expired: true }
        : s.status === 'loading'
          ? { status: 'anonymous', expired: false }
          : s,
    );
  }, [qc]);

  useEffect(() => {
    setUnauthorizedHandler(expire);
    return () => setUnauthorizedHandler(null);
  }, [expire]);

  // On load: the cookie may still hold a session; a fresh nonce for it means we are logged in.
  useEffect(() => {
    let alive = true;
    void (async () => {
      try {
        if (!(await fetchNonce())) throw new Error('no session');
        lastRefresh.current = Date.now();
        const me = await loadMe();
        if (alive) setState({ status: 'ready', me });
      } catch {
        if (alive) setState({ status: 'anonymous', expired: false });
      }
    })();
    return () => {
      alive = false;
    };
  }, []);

  const ready = state.status === 'ready';
  useEffect(() => {
    if (!ready) return;
    const refresh = () => {
      lastRefresh.current = Date.now();
      void fetchNonce().then((ok) => ok || expire());
    };
    const timer = setInterval(refresh, REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible' && Date.now() - lastRefresh.current > REFRESH_MS / 2) refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [ready, expire]);

  const login = useCallback(async (login: string, password: string) => {
    const r = await api.POST('/wp-json/rova/v1/auth/login', { body: { login, password } });
    if (!r.data) throw toApiError(r.response.status, r.error);
    setNonce(r.data.nonce);
    lastRefresh.current = Date.now();
    setState({ status: 'ready', me: await loadMe() });
  }, []);

  const logout = useCallback(async () => {
    await api.POST('/wp-json/rova/v1/auth/logout', { params: { query: {} } }).catch(() => undefined);
    setNonce(null);
    qc.clear();
    setState({ status: 'anonymous', expired: false });
  }, [qc]);

  const value = useMemo<SessionApi>(
    () => ({ state, login, logout, can: (cap) => state.status === 'ready' && state.me.capabilities.includes(cap) }),
    [state, login, logout],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useSession(): SessionApi {
  const s = useContext(Ctx);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/** The logged-in user's data; only inside the shell (which renders for a ready session only). */
export function useMe(): Me {
  const { state } = useSession();
  if (state.status !== 'ready') throw new Error('useMe without a session');
  return state.me;
}

/** Formatting context: store currency and time zone. */
export function useStore(): Me['store'] {
  return useMe().store;
}
