import type { EscalationSettings } from '../../shared/alerts/escalation';
import type { Preferences } from '../../shared/alerts/preferences';
import type { AlertSettings, AutoSettings } from '../../shared/alerts/settings';
import type { AlertEmailRoutes } from './alert-email';

/**
 * A farm's thresholds, a vat's controller settings and a user's alert preferences, in the Farms
 * table beside what they belong to (DESIGN: thresholds and auto settings are farm-owned). Until
 * something is saved the §9 defaults apply, so a read never fails for want of an item.
 */
export interface AlertSettingsRepository extends AlertEmailRoutes {
  getFarmSettings(farmId: string): Promise<AlertSettings>;
  putFarmSettings(farmId: string, settings: AlertSettings): Promise<void>;
  getAutoSettings(deviceId: string): Promise<AutoSettings>;
  putAutoSettings(deviceId: string, settings: AutoSettings): Promise<void>;
  getPreferences(userId: string): Promise<Preferences>;
  /** Many users' preferences at once (the notifier reads every user of a farm). */
  getPreferencesOf(userIds: readonly string[]): Promise<Map<string, Preferences>>;
  putPreferences(userId: string, prefs: Preferences): Promise<void>;
  /** The users linked to a farm (farm links' gsi1, farmer §1), whom its alerts go to. */
  listUserIdsOfFarm(farmId: string): Promise<string[]>;
  /** A user's escalation preference; DEFAULT_ESCALATION until one is saved. */
  getEscalation(userId: string): Promise<EscalationSettings>;
  getEscalationOf(userIds: readonly string[]): Promise<Map<string, EscalationSettings>>;
  putEscalation(userId: string, settings: EscalationSettings): Promise<void>;
  /**
   * The users with a role in the farm's organizations or any organization above them (escalation
   * step 2 goes to those who opted in).
   */
  listOrganizationUserIdsOfFarm(farmId: string): Promise<string[]>;
}
