// Providers and routes. Pages load lazily (each its own chunk); sign-in, registration, the magic-link
// exchange and the password-reset pages are public, everything else needs a session. The first load is
// the sign-in form's: the signed-in frame (Shell: the menu, the notices, the rest of the styles) and the
// other public pages come in chunks of their own. Each lazy page sits in a PageBoundary, which retries a
// chunk that failed to load and keeps the menu around a page that failed.
import { Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { MantineProvider, createTheme } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, RouterProvider, useLocation } from 'react-router';
import { ModeProvider } from './mode.tsx';
import { hasSession, onSessionChange } from './api/session.ts';
import { ApiError } from './api/client.ts';
import { SignIn } from './pages/auth/SignIn.tsx';
import { lazyPage } from './loading/lazy-page.ts';
import { PageBoundary, Pending, RouteError } from './loading/PageBoundary.tsx';
import { merchantRoutes } from './pages/merchant/routes.ts';
import { partnerRoutes } from './pages/partner/routes.ts';
import { adminRoutes } from './pages/admin/routes.ts';
import type { PageRoute } from './pages/types.ts';

/** A public page other than sign-in, with every component's styles (the first load has sign-in's only). */
const publicPage = (load: () => Promise<{ default: ComponentType }>) =>
  lazyPage(async () => (await Promise.all([import('./styles/full.ts'), load()]))[1]);

const Shell = lazyPage(() => import('./layout/Shell.tsx'));
const Register = publicPage(() => import('./pages/auth/Register.tsx'));
const Magic = publicPage(() => import('./pages/auth/Magic.tsx'));
const ForgotPassword = publicPage(() => import('./pages/auth/ForgotPassword.tsx'));
const ResetPassword = publicPage(() => import('./pages/auth/ResetPassword.tsx'));

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

function Lazily({ Page }: { Page: ComponentType }) {
  const { pathname } = useLocation();
  return (
    <PageBoundary resetKey={pathname}>
      <Suspense fallback={<Pending />}>
        <Page />
      </Suspense>
    </PageBoundary>
  );
}
const lazily = (Page: ComponentType) => <Lazily Page={Page} />;
const page = (base: string, r: PageRoute) => ({
  path: [base, r.path].filter(Boolean).join('/') || undefined,
  index: !base && r.path === '',
  element: lazily(r.Component),
});

const router = createBrowserRouter(
  [
    { path: '/login', element: <SignIn />, errorElement: <RouteError /> },
    { path: '/register', element: lazily(Register), errorElement: <RouteError /> },
    { path: '/magic', element: lazily(Magic), errorElement: <RouteError /> },
    { path: '/forgot-password', element: lazily(ForgotPassword), errorElement: <RouteError /> },
    { path: '/reset-password', element: lazily(ResetPassword), errorElement: <RouteError /> },
    {
      path: '/',
      element: <RequireSession>{lazily(Shell)}</RequireSession>,
      errorElement: <RouteError />,
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
      <QueryClientProvider client={queries}>
        <ModeProvider>
          <RouterProvider router={router} />
        </ModeProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
