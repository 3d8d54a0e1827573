/**
 * The endpoint paths of spec §7 (farmer-area and operator-area documents).
 * One Lambda per path: `lambdas/api/<handler>.ts`. The CDK stack makes a route and a function
 * for each; the local gateway loads the same handler files. This list is the single source.
 */
export type EndpointAuth =
  /** API Gateway's JWT authorizer guards the route: the Lambda reads verified claims. */
  | 'jwt'
  /**
   * The route is public because some of its types (sign-in, sign-up, password reset, login
   * status) are called before there is a token; the Lambda verifies the bearer itself for the
   * other types.
   */
  | 'public';

export interface Endpoint {
  readonly path: string;
  /** File name (without .ts) under lambdas/api/. */
  readonly handler: string;
  readonly area: 'farmer' | 'operator';
  readonly auth: EndpointAuth;
}

export const ENDPOINTS = [
  { path: '/api/user', handler: 'user', area: 'farmer', auth: 'public' },
  { path: '/api/farmer/dashboard', handler: 'farmer-dashboard', area: 'farmer', auth: 'jwt' },
  { path: '/api/farmer/notification', handler: 'farmer-notification', area: 'farmer', auth: 'jwt' },
  { path: '/api/farmer/setting', handler: 'farmer-setting', area: 'farmer', auth: 'jwt' },
  { path: '/api/setting/profile', handler: 'setting-profile', area: 'farmer', auth: 'jwt' },
  { path: '/api/farmer/activity', handler: 'farmer-activity', area: 'farmer', auth: 'jwt' },
  { path: '/api/farmer/organization', handler: 'farmer-organization', area: 'farmer', auth: 'jwt' },
  { path: '/api/farmer/equipment', handler: 'farmer-equipment', area: 'farmer', auth: 'jwt' },
  { path: '/api/farmer/log/fonterra', handler: 'farmer-log-fonterra', area: 'farmer', auth: 'jwt' },
  { path: '/api/farmer/survey', handler: 'farmer-survey', area: 'farmer', auth: 'jwt' },
  { path: '/api/admin/user', handler: 'admin-user', area: 'operator', auth: 'jwt' },
  { path: '/api/admin/device', handler: 'admin-device', area: 'operator', auth: 'jwt' },
  { path: '/api/admin/farm', handler: 'admin-farm', area: 'operator', auth: 'jwt' },
  { path: '/api/milkquality', handler: 'milkquality', area: 'operator', auth: 'jwt' },
  { path: '/api/installer', handler: 'installer', area: 'operator', auth: 'jwt' },
  { path: '/api/calibration', handler: 'calibration', area: 'operator', auth: 'jwt' },
  { path: '/api/watchman', handler: 'watchman', area: 'operator', auth: 'jwt' },
] as const satisfies readonly Endpoint[];

export type EndpointPath = (typeof ENDPOINTS)[number]['path'];

export const endpointByPath = (path: string): Endpoint | undefined =>
  (ENDPOINTS as readonly Endpoint[]).find((e) => e.path === path);
