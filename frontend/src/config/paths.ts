/**
 * Every route of the specs (farmer §2.1–2.3, operator §2 Routes), as route patterns and link
 * builders. Features link through these; src/app/routes.tsx wires the ones that have a screen.
 * A path listed here without a screen renders 'Promotion 404' until its screen exists.
 */
const seg = (value: string | undefined): string => (value ? `/${encodeURIComponent(value)}` : '');

export const paths = {
  // Top level (operator §2)
  home: { pattern: '/', to: () => '/' },
  logout: { pattern: '/logout', to: () => '/logout' },
  test: { pattern: '/test', to: () => '/test' },
  /** Sends the signed-in user to their role's landing page (lib/role-landing.ts `landingPath`). */
  redirect: { pattern: '/redirect', to: () => '/redirect' },
  admin: { pattern: '/admin', to: () => '/admin' },
  adminHome: { pattern: '/admin/home', to: () => '/admin/home' },
  adminUsers: { pattern: '/admin/users', to: () => '/admin/users' },

  // Public shell (farmer §2.1)
  login: {
    pattern: '/dts/login/:reurl?',
    /** `reurl` is the path to return to after sign-in, encoded as one segment. */
    to: (reurl?: string) => `/dts/login${seg(reurl)}`,
  },
  register: { pattern: '/dts/register', to: () => '/dts/register' },
  forgotPassword: { pattern: '/dts/password/forgot', to: () => '/dts/password/forgot' },
  forgotPasswordFinished: { pattern: '/dts/password/forgot/finished', to: () => '/dts/password/forgot/finished' },
  resetPassword: { pattern: '/dts/password/reset/:token', to: (token: string) => `/dts/password/reset${seg(token)}` },
  permission: { pattern: '/dts/permission', to: () => '/dts/permission' },
  /** Enrol an authenticator app: operator roles need one; not in the spec, which predates it. */
  totpSetup: { pattern: '/dts/authenticator', to: () => '/dts/authenticator' },

  // Authenticated shell (farmer §2.3)
  moduleDashboard: { pattern: '/dashboard', to: () => '/dashboard' },
  milkDashboard: { pattern: '/dts/dashboard', to: () => '/dts/dashboard' },
  storageData: { pattern: '/dts/dashboard/data', to: () => '/dts/dashboard/data' },
  milking: { pattern: '/dts/milking', to: () => '/dts/milking' },
  milkingDetail: { pattern: '/dts/milking/:activityId', to: (activityId: string) => `/dts/milking${seg(activityId)}` },
  /** The cooling compliance record (not in the spec's routes). */
  compliance: { pattern: '/dts/compliance', to: () => '/dts/compliance' },
  agitator: { pattern: '/dts/agitator', to: () => '/dts/agitator' },
  collection: { pattern: '/dts/collection', to: () => '/dts/collection' },
  equipment: { pattern: '/dts/equipment', to: () => '/dts/equipment' },
  equipmentBuilder: { pattern: '/dts/equipment/builder', to: () => '/dts/equipment/builder' },
  notifications: { pattern: '/dts/notification', to: () => '/dts/notification' },
  alertSettings: { pattern: '/dts/setting/alert', to: () => '/dts/setting/alert' },
  userSettings: { pattern: '/dts/user/setting', to: () => '/dts/user/setting' },
  profile: { pattern: '/dts/user/profile/:verification?', to: (verification?: string) => `/dts/user/profile${seg(verification)}` },
  storage: {
    pattern: '/dts/storage/:activityId/alert?/:alertId?',
    to: (activityId: string, alertId?: string) => `/dts/storage${seg(activityId)}${alertId ? `/alert${seg(alertId)}` : ''}`,
  },
  pickup: { pattern: '/dts/pickup', to: () => '/dts/pickup' },
  fonterraLog: { pattern: '/dts/log/fonterra', to: () => '/dts/log/fonterra' },
  survey: { pattern: '/dts/survey', to: () => '/dts/survey' },
  blank: { pattern: '/dts/blank', to: () => '/dts/blank' },
  group: {
    pattern: '/dts/group/:organizationId?/o?/:parentId?',
    to: (organizationId?: string, parentId?: string) => `/dts/group${seg(organizationId)}${parentId ? `/o${seg(parentId)}` : ''}`,
  },
  organization: {
    pattern: '/dts/organization/:organizationId?/o?/:parentId?',
    to: (organizationId?: string, parentId?: string) =>
      `/dts/organization${seg(organizationId)}${parentId ? `/o${seg(parentId)}` : ''}`,
  },

  // Operator area (operator §2)
  /** The operators' fleet overview (Admin and Installer land here; not in the spec's routes). */
  fleet: { pattern: '/dts/fleet', to: () => '/dts/fleet' },
  /** The list behind the overview's ingest health: dead letters and rejected messages. */
  fleetIngest: { pattern: '/dts/fleet/ingest', to: () => '/dts/fleet/ingest' },
  users: { pattern: '/dts/users', to: () => '/dts/users' },
  devices: { pattern: '/dts/devices', to: () => '/dts/devices' },
  device: { pattern: '/dts/device/:deviceId', to: (deviceId: string) => `/dts/device${seg(deviceId)}` },
  virtualDevices: { pattern: '/dts/virtual', to: () => '/dts/virtual' },
  farms: { pattern: '/dts/farms', to: () => '/dts/farms' },
  installerConfig: { pattern: '/dts/installer/config', to: () => '/dts/installer/config' },
  installerNew: { pattern: '/dts/installer/new', to: () => '/dts/installer/new' },
  installerLog: { pattern: '/dts/installer/log', to: () => '/dts/installer/log' },
  installerHelp: { pattern: '/dts/installer/help', to: () => '/dts/installer/help' },
  installerCheck: { pattern: '/dts/installer/check', to: () => '/dts/installer/check' },
  calibration: { pattern: '/dts/calibration', to: () => '/dts/calibration' },
  watchman: { pattern: '/dts/watchman', to: () => '/dts/watchman' },
  milkQuality: { pattern: '/dts/milkquality', to: () => '/dts/milkquality' },
  westlandsData: { pattern: '/dts/westlandsdata', to: () => '/dts/westlandsdata' },

  /** The telemetry placeholder page (operator §2; the spec does not show its route). */
  telemetry: { pattern: '/dts/telemetry', to: () => '/dts/telemetry' },
  /** The external telemetry interface page (operator §2; the spec does not show its route): static, public. */
  telemetryInterface: { pattern: '/dts/telemetry/interface', to: () => '/dts/telemetry/interface' },
  /** The API reference (docs/openapi.json rendered; not in the spec): static, public (decision 070). */
  apiReference: { pattern: '/dts/api', to: () => '/dts/api' },

  // Partner shells (operator §2)
  partnerMilkQuality: { pattern: '/dts/:partner/milkquality', to: (partner: string) => `/dts${seg(partner)}/milkquality` },
  partnerProfile: {
    pattern: '/dts/:partner/profile/:verification?',
    to: (partner: string, verification?: string) => `/dts${seg(partner)}/profile${seg(verification)}`,
  },
  westlandsArea: { pattern: '/dts/westlands/data', to: () => '/dts/westlands/data' },
  westlandsProfile: {
    pattern: '/dts/westlands/profile/:verification?',
    to: (verification?: string) => `/dts/westlands/profile${seg(verification)}`,
  },
} as const;

/** The dairy company whose Milk Quality shell an unauthorized Milk Quality user lands in. */
export const MILK_QUALITY_PARTNER = 'fonterra';
