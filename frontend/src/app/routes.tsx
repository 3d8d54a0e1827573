import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { paths } from '../config/paths';
import { RootLayout } from './root-layout';
import { HomePage } from './routes/home-page';
import { NotFoundPage } from './routes/not-found-page';
import { RouteErrorPage } from './routes/route-error-page';
import { RouteFallback } from './routes/route-fallback';

/** Loads a screen's code on first visit, so the sign-in page does not carry chart.js. */
const screen =
  <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType) =>
  async (): Promise<{ Component: ComponentType }> => ({ Component: pick(await load()) });

/**
 * The route table: one line per screen, patterns from src/config/paths.ts (which lists every
 * route of the specs). Only screens that exist are wired; any other path is 'Promotion 404'.
 * Screens of the authenticated shell (farmer §2.2) go in a child list under that shell's layout
 * route once it exists: `{ Component: FarmerShell, children: [ …one line each… ] }`.
 */
export const screens: RouteObject[] = [
  { path: paths.home.pattern, Component: HomePage },
  { path: paths.logout.pattern, lazy: screen(() => import('../features/auth/components/logout-page'), (m) => m.LogoutPage) },
  { path: paths.login.pattern, lazy: screen(() => import('../features/auth/components/login-page'), (m) => m.LoginPage) },
  { path: '*', Component: NotFoundPage },
];

export const routes: RouteObject[] = [
  { Component: RootLayout, HydrateFallback: RouteFallback, ErrorBoundary: RouteErrorPage, children: screens },
];
