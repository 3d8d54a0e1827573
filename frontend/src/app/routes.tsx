import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { paths } from '../config/paths';
import { FARM_OPTIONAL } from '../features/shell/utils/farm-optional';
import { RootLayout } from './root-layout';
import { HomePage } from './routes/home-page';
import { NotFoundPage } from './routes/not-found-page';
import { RouteErrorPage } from './routes/route-error-page';
import { RouteFallback } from './routes/route-fallback';
import { toAdminUsers, toRoleLanding } from './routes/redirects';

/**
 * Loads a screen's code on first visit, so the sign-in page does not carry chart.js. The export is
 * picked in the import's `.then` so that knip (`npm run lint:unused`) sees which one a route uses.
 */
const screen =
  (load: () => Promise<ComponentType>) =>
  async (): Promise<{ Component: ComponentType }> => ({ Component: await load() });

/** Route ids start-up looks for (app/bootstrap.tsx: the shell's early API calls). */
export const FARMER_SHELL_ROUTE = 'farmer-shell';
export const MILK_DASHBOARD_ROUTE = 'milk-dashboard';
export const DEVICE_LIST_ROUTE = 'device-list';

/**
 * The route table: one line per screen, patterns from src/config/paths.ts (which lists every
 * route of the specs). Only screens that exist are wired; any other path is 'Promotion 404'.
 * Screens of the authenticated shell (farmer §2.2) go in a child list under that shell's layout
 * route once it exists: `{ Component: FarmerShell, children: [ …one line each… ] }`.
 */
const screens: RouteObject[] = [
  { path: paths.home.pattern, Component: HomePage },
  { path: paths.logout.pattern, lazy: screen(() => import('../features/auth/components/logout-page').then((m) => m.LogoutPage)) },
  { path: paths.login.pattern, lazy: screen(() => import('../features/auth/components/login-page').then((m) => m.LoginPage)) },
  { path: paths.telemetryInterface.pattern, lazy: screen(() => import('../features/interface-docs/components/interface-docs-page').then((m) => m.InterfaceDocsPage)) },
  { path: paths.apiReference.pattern, lazy: screen(() => import('../features/api-reference/components/api-reference-page').then((m) => m.ApiReferencePage)) },
  { path: paths.test.pattern, lazy: screen(() => import('./routes/test-page').then((m) => m.TestPage)) },
  // Redirects: the loader answers before anything renders; the fallback is what a pending loader shows.
  { path: paths.redirect.pattern, loader: toRoleLanding, Component: RouteFallback },
  { path: paths.admin.pattern, loader: toAdminUsers, Component: RouteFallback },
  { path: paths.adminHome.pattern, loader: toAdminUsers, Component: RouteFallback },
  { path: paths.adminUsers.pattern, loader: toAdminUsers, Component: RouteFallback },
  // Partner shells (operator §2): static /dts/westlands/… outranks /dts/:partner/…, so Westlands wins there.
  { lazy: screen(() => import('../features/partner-shell/components/partner-shell').then((m) => m.MilkQualityShell)), children: [
    { path: paths.partnerMilkQuality.pattern, handle: { title: 'Milk Quality' }, lazy: screen(() => import('../features/milk-quality/components/milk-quality-page').then((m) => m.MilkQualityPage)) },
    { path: paths.partnerProfile.pattern, handle: { title: 'Profile' }, lazy: screen(() => import('../features/profile/components/profile-page').then((m) => m.ProfilePage)) },
  ] },
  { lazy: screen(() => import('../features/partner-shell/components/partner-shell').then((m) => m.WestlandsShell)), children: [
    { path: paths.westlandsArea.pattern, handle: { title: 'Westlands Data' }, lazy: screen(() => import('../features/milk-quality/components/westlands-data-page').then((m) => m.WestlandsDataPage)) },
    { path: paths.westlandsProfile.pattern, handle: { title: 'Profile' }, lazy: screen(() => import('../features/profile/components/profile-page').then((m) => m.ProfilePage)) },
  ] },
  { path: paths.register.pattern, lazy: screen(() => import('../features/auth/components/register-page').then((m) => m.RegisterPage)) },
  { path: paths.forgotPassword.pattern, lazy: screen(() => import('../features/auth/components/forgot-password-page').then((m) => m.ForgotPasswordPage)) },
  { path: paths.forgotPasswordFinished.pattern, lazy: screen(() => import('../features/auth/components/forgot-password-finished-page').then((m) => m.ForgotPasswordFinishedPage)) },
  { path: paths.resetPassword.pattern, lazy: screen(() => import('../features/auth/components/reset-password-page').then((m) => m.ResetPasswordPage)) },
  { path: paths.permission.pattern, lazy: screen(() => import('../features/auth/components/permission-page').then((m) => m.PermissionPage)) },
  { path: paths.totpSetup.pattern, lazy: screen(() => import('../features/auth/components/totp-setup-page').then((m) => m.TotpSetupPage)) },
  // The signed-in farmer's shell (farmer §2.2): its screens get user and farm from useOutletContext().
  {
    id: FARMER_SHELL_ROUTE,
    lazy: screen(() => import('../features/shell/components/farmer-shell').then((m) => m.FarmerShell)),
    children: [
      { path: paths.moduleDashboard.pattern, lazy: screen(() => import('../features/module-dashboard/components/module-dashboard-page').then((m) => m.ModuleDashboardPage)) },
      // Screens that need no farm (FARM_OPTIONAL): the person's own pages and the operator pages.
      { path: paths.profile.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/profile/components/profile-page').then((m) => m.ProfilePage)) },
      { path: paths.survey.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/profile/components/enquiry-page').then((m) => m.EnquiryPage)) },
      // operator §2 'Telemetry and empty pages' (farmer §2.3 /dts/blank): routed, not linked.
      { path: paths.blank.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('./routes/blank-page').then((m) => m.BlankPage)) },
      { path: paths.telemetry.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/devices/components/telemetry-page').then((m) => m.TelemetryPage)) },
      // Organizations (farmer §2.12): the group link's pages; the tree needs no selected farm.
      { path: paths.group.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/organization/components/organization-page').then((m) => m.OrganizationPage)) },
      { path: paths.organization.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/organization/components/organization-page').then((m) => m.OrganizationPage)) },
      { path: paths.userSettings.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/alert-settings/components/notification-preferences-page').then((m) => m.NotificationPreferencesPage)) },
      // Administration (operator §2): Admin only; the server decides.
      { path: paths.users.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/users/components/users-page').then((m) => m.UsersPage)) },
      { path: paths.farms.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/farms/components/farms-page').then((m) => m.FarmsPage)) },
      { path: paths.milkQuality.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/milk-quality/components/milk-quality-page').then((m) => m.MilkQualityMainPage)) },
      { path: paths.westlandsData.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/milk-quality/components/westlands-data-page').then((m) => m.WestlandsDataMainPage)) },
      // The device fleet (operator §2): Admin and Installer; the server decides.
      { path: paths.fonterraLog.pattern, lazy: screen(() => import('../features/dairy-log/components/dairy-log-page').then((m) => m.DairyLogPage)) },
      { path: paths.calibration.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/calibration/components/calibration-page').then((m) => m.CalibrationPage)) },
      { path: paths.watchman.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/watchman/components/watchman-page').then((m) => m.WatchmanPage)) },
      { path: paths.installerConfig.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/installer/components/installer-config-page').then((m) => m.InstallerConfigPage)) },
      { path: paths.installerNew.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/installer/components/new-install-page').then((m) => m.NewInstallPage)) },
      { path: paths.installerLog.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/installer/components/install-log-page').then((m) => m.InstallLogPage)) },
      { path: paths.installerCheck.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/installer/components/check-install-page').then((m) => m.CheckInstallPage)) },
      { path: paths.installerHelp.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/installer/components/install-help-page').then((m) => m.InstallHelpPage)) },
      { path: paths.fleet.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/fleet/components/fleet-page').then((m) => m.FleetPage)) },
      { path: paths.fleetIngest.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/fleet/components/ingest-problems-page').then((m) => m.IngestProblemsPage)) },
      { id: DEVICE_LIST_ROUTE, path: paths.devices.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/devices/components/device-list-page').then((m) => m.DeviceListPage)) },
      { path: paths.virtualDevices.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/devices/components/virtual-devices-page').then((m) => m.VirtualDevicesPage)) },
      { path: paths.device.pattern, handle: FARM_OPTIONAL, lazy: screen(() => import('../features/devices/components/device-page').then((m) => m.DevicePage)) },
      // The milk pages, under the farm tab bar.
      {
        lazy: screen(() => import('../features/shell/components/farm-tabs').then((m) => m.FarmTabsLayout)),
        children: [
          { id: MILK_DASHBOARD_ROUTE, path: paths.milkDashboard.pattern, lazy: screen(() => import('../features/milk-dashboard/components/milk-dashboard-page').then((m) => m.MilkDashboardPage)) },
          { path: paths.storageData.pattern, lazy: screen(() => import('../features/storage/components/storage-data-page').then((m) => m.StorageDataPage)) },
          { path: paths.storage.pattern, lazy: screen(() => import('../features/storage/components/storage-page').then((m) => m.StoragePage)) },
          { path: paths.collection.pattern, lazy: screen(() => import('../features/storage/components/collection-page').then((m) => m.CollectionPage)) },
          { path: paths.agitator.pattern, lazy: screen(() => import('../features/storage/components/agitator-page').then((m) => m.AgitatorPage)) },
          { path: paths.pickup.pattern, lazy: screen(() => import('../features/storage/components/pickup-page').then((m) => m.PickupPage)) },
          { path: paths.milking.pattern, lazy: screen(() => import('../features/milking/components/milking-page').then((m) => m.MilkingPage)) },
          { path: paths.milkingDetail.pattern, lazy: screen(() => import('../features/milking/components/milking-detail-page').then((m) => m.MilkingDetailPage)) },
          { path: paths.compliance.pattern, lazy: screen(() => import('../features/compliance/components/compliance-page').then((m) => m.CompliancePage)) },
          { path: paths.equipment.pattern, lazy: screen(() => import('../features/equipment/components/equipment-page').then((m) => m.EquipmentPage)) },
          { path: paths.equipmentBuilder.pattern, lazy: screen(() => import('../features/equipment/components/equipment-builder-page').then((m) => m.EquipmentBuilderPage)) },
          { path: paths.notifications.pattern, lazy: screen(() => import('../features/alerts/components/alerts-page').then((m) => m.AlertsPage)) },
          { path: paths.alertSettings.pattern, lazy: screen(() => import('../features/alert-settings/components/alert-settings-page').then((m) => m.AlertSettingsPage)) },
        ],
      },
    ],
  },
  { path: '*', Component: NotFoundPage },
];

export const routes: RouteObject[] = [
  { Component: RootLayout, HydrateFallback: RouteFallback, ErrorBoundary: RouteErrorPage, children: screens },
];
