import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/client';
import { SessionProvider } from './api/session';
import { App } from './App';
import { ToastProvider } from './components/Toast';
import './app.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Admin data changes under other operators' hands, but not by the second: 30 s avoids refetch storms on navigation.
      staleTime: 30_000,
      // 4xx are answers, not glitches: retry only network errors (status 0) and 5xx.
      retry: (n, e) => n < 2 && !(e instanceof ApiError && e.status >= 400 && e.status < 500),
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/admin">
        <ToastProvider>
          <SessionProvider>
            <App />
          </SessionProvider>
        </ToastProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
