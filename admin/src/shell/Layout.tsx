import { Suspense, useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { useMe, useSession } from '../api/session';
import { Loading } from '../components/State';
import type { Screen } from '../screens/registry';
import { useTheme } from './theme';

export function Layout({ screens }: { screens: Screen[] }) {
  const me = useMe();
  const { logout } = useSession();
  const [theme, toggleTheme] = useTheme();
  const [menu, setMenu] = useState(false);
  return (
    <div className="min-h-screen md:grid md:grid-cols-[14rem_1fr]">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <header className="flex items-center justify-between border-b border-slate-200 bg-white p-3 md:hidden dark:border-slate-800 dark:bg-slate-900">
        <span className="font-semibold">{me.store.name}</span>
        <button
          type="button"
          className="btn"
          aria-expanded={menu}
          aria-controls="admin-nav"
          onClick={() => setMenu((m) => !m)}
        >
          Menu
        </button>
      </header>
      <aside
        id="admin-nav"
        className={`${menu ? 'block' : 'hidden'} border-r border-slate-200 bg-white p-3 md:sticky md:top-0 md:block md:h-screen dark:border-slate-800 dark:bg-slate-900`}
      >
        <div className="mb-4 hidden md:block">
          <div className="text-lg font-semibold">{me.store.name}</div>
          <div className="text-xs text-slate-600 dark:text-slate-400">
            {me.store.currency} · {me.store.timezone}
          </div>
        </div>
        <nav aria-label="Admin">
          <ul className="space-y-1">
            {screens.map((s) => (
              <li key={s.path}>
                <NavLink
                  to={`/${s.path}`}
                  onClick={() => setMenu(false)}
                  className={({ isActive }) =>
                    `block rounded px-3 py-2 ${isActive ? 'bg-teal-700 text-white' : 'hover:bg-slate-100 dark:hover:bg-slate-800'}`
                  }
                >
                  {s.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="mt-6 space-y-2 border-t border-slate-200 pt-3 text-sm dark:border-slate-800">
          <div>
            Signed in as <strong>{me.user.display_name}</strong>
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn"
              onClick={toggleTheme}
              aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}
            >
              {theme === 'dark' ? 'Light' : 'Dark'} theme
            </button>
            <button type="button" className="btn" onClick={() => void logout()}>
              Log out
            </button>
          </div>
        </div>
      </aside>
      <main id="main" className="min-w-0 p-4 md:p-6">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

export function NoAccess() {
  const { logout } = useSession();
  const me = useMe();
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="max-w-md rounded-lg border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900">
        <h1 className="mb-2 text-xl font-semibold">No admin access</h1>
        <p className="mb-4">
          {me.user.display_name} ({me.user.role}) has no access to any admin screen. Ask an administrator for the role
          you need.
        </p>
        <button type="button" className="btn" onClick={() => void logout()}>
          Log out
        </button>
      </div>
    </main>
  );
}
