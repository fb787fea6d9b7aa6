// Providers and routes. Pages load lazily (each its own chunk); sign-in, registration, the magic-link
// exchange and the password-reset pages are public, everything else needs a session.
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { MantineProvider, Loader, Center, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, RouterProvider, useLocation } from 'react-router';
import { ModeProvider } from './mode.tsx';
import { hasSession, onSessionChange } from './api/session.ts';
import { ApiError } from './api/client.ts';
import { Shell } from './layout/Shell.tsx';
import { SignIn } from './pages/auth/SignIn.tsx';
import { Register } from './pages/auth/Register.tsx';
import { Magic } from './pages/auth/Magic.tsx';
import { merchantRoutes } from './pages/merchant/routes.ts';
import { partnerRoutes } from './pages/partner/routes.ts';
import { adminRoutes } from './pages/admin/routes.ts';
import type { PageRoute } from './pages/types.ts';

const ForgotPassword = lazy(() => import('./pages/auth/ForgotPassword.tsx'));
const ResetPassword = lazy(() => import('./pages/auth/ResetPassword.tsx'));

// Shade 8 of blue keeps links and buttons above WCAG AA contrast (4.5:1) on white.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

// Mantine's dimmed text (gray 6) is below WCAG AA contrast on white; gray 7 is well above it. So is a
// field's error text and invalid input (red 6): red 8 is above it.
const cssVariables = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
  },
  dark: {},
});

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      // 4xx answers are final; a network blip or a 5xx is worth one more try.
      retry: (n, e) => n < 1 && !(e instanceof ApiError && e.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

function RequireSession({ children }: { children: ReactNode }) {
  const [signedIn, set] = useState(hasSession());
  const location = useLocation();
  useEffect(() => onSessionChange(() => set(hasSession())), []);
  if (!signedIn)
    return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <>{children}</>;
}

const pending = (
  <Center p="xl">
    <Loader aria-label="…" />
  </Center>
);
const page = (base: string, r: PageRoute) => ({
  path: [base, r.path].filter(Boolean).join('/') || undefined,
  index: !base && r.path === '',
  element: (
    <Suspense fallback={pending}>
      <r.Component />
    </Suspense>
  ),
});

const router = createBrowserRouter(
  [
    { path: '/login', element: <SignIn /> },
    { path: '/register', element: <Register /> },
    { path: '/magic', element: <Magic /> },
    {
      path: '/forgot-password',
      element: (
        <Suspense fallback={pending}>
          <ForgotPassword />
        </Suspense>
      ),
    },
    {
      path: '/reset-password',
      element: (
        <Suspense fallback={pending}>
          <ResetPassword />
        </Suspense>
      ),
    },
    {
      path: '/',
      element: (
        <RequireSession>
          <Shell />
        </RequireSession>
      ),
      children: [
        ...merchantRoutes.map((r) => page('', r)),
        ...partnerRoutes.map((r) => page('partner', r)),
        ...adminRoutes.map((r) => page('admin', r)),
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ],
  { basename: '/dashboard' },
);

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queries}>
        <ModeProvider>
          <RouterProvider router={router} />
        </ModeProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
