import { lazy, useMemo, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes, useLocation, useSearchParams } from 'react-router';
import { useSession } from './api/session';
import { Loading } from './components/State';
import { SCREENS } from './screens/registry';
import { Layout, NoAccess } from './shell/Layout';
import { Login } from './shell/Login';

const LAZY = new Map<string, LazyExoticComponent<ComponentType>>(SCREENS.map((s) => [s.path, lazy(s.load)]));

export function App() {
  const { state, can } = useSession();
  const loc = useLocation();
  const allowed = useMemo(() => SCREENS.filter((s) => can(s.capability) && !(s.unless ?? []).some(can)), [can]);

  if (state.status === 'loading') return <Loading label="Checking your session…" />;
  if (state.status === 'anonymous') {
    if (loc.pathname === '/login') return <Login />;
    const next = loc.pathname + loc.search;
    return (
      <Navigate
        to={`/login${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`}
        replace
        state={{ expired: state.expired }}
      />
    );
  }
  if (allowed.length === 0) return <NoAccess />;
  return (
    <Routes>
      <Route path="/login" element={<AfterLogin />} />
      <Route element={<Layout screens={allowed} />}>
        {allowed.map((s) => {
          const Screen = LAZY.get(s.path)!;
          return <Route key={s.path} path={`${s.path}/*`} element={<Screen />} />;
        })}
        <Route index element={<Navigate to={`/${allowed[0]!.path}`} replace />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

function NotFound() {
  return (
    <div>
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p>There is no admin screen at this address, or your role cannot open it.</p>
    </div>
  );
}

/** Logged in on /login?next=…: back to where the session ran out (same-origin paths only). */
function AfterLogin() {
  const [params] = useSearchParams();
  const next = params.get('next');
  return <Navigate to={next && next.startsWith('/') && !next.startsWith('//') ? next : '/'} replace />;
}
