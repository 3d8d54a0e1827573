import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { defaultPreferences, PREFERENCE_KEYS, type Preferences } from '../../../shared/alerts/preferences';
import { ALERT_SETTING_FIELDS, AUTO_SETTING_FIELDS, DEFAULT_ALERT_SETTINGS, DEFAULT_AUTO_SETTINGS } from '../../../shared/alerts/settings';
import { DEFAULT_ESCALATION, escalationSettingsSchema, type EscalationSettings } from '../../../shared/alerts/escalation';
import type { AlertEmailRoute } from '../../ports/alert-email';
import { alertsKeys as k, farmsKeys } from './keys';
import { batchGet, queryAll, queryGsi1 } from './query';
import type { AlertSettingsRepository } from '../../ports/alert-settings';

const ORG_DEPTH = 6;

const toEscalation = (item: Record<string, unknown> | undefined): EscalationSettings => {
  const parsed = escalationSettingsSchema.safeParse({ minutes: item?.minutes, organization: item?.organization, ...(item?.push_minutes !== undefined ? { push_minutes: item.push_minutes } : {}) });
  return parsed.success ? parsed.data : DEFAULT_ESCALATION;
};

const pick = <F extends string>(fields: readonly F[], item: Record<string, unknown> | undefined, defaults: Record<F, number>): Record<F, number> => {
  const out = { ...defaults };
  for (const f of fields) if (typeof item?.[f] === 'number') out[f] = item[f] as number;
  return out;
};

const toPreferences = (item: Record<string, unknown> | undefined): Preferences => {
  const out = defaultPreferences();
  const stored = (item?.preferences ?? {}) as Record<string, { email?: unknown; text?: unknown; push?: unknown }>;
  for (const key of PREFERENCE_KEYS) {
    const row = stored[key];
    if (row && typeof row.email === 'boolean' && typeof row.text === 'boolean') out[key] = { email: row.email, text: row.text, ...(typeof row.push === 'boolean' ? { push: row.push } : {}) };
  }
  return out;
};

export const dynamoAlertSettingsRepository = (doc: DynamoDBDocumentClient, table: string): AlertSettingsRepository => {
  const get = async (key: { pk: string; sk: string }) => (await doc.send(new GetCommand({ TableName: table, Key: key }))).Item as Record<string, unknown> | undefined;
  /** One item per user (BatchGet, 100 keys a call), each read with `of`; users without one get `of(undefined)`. */
  const perUser = async <T>(userIds: readonly string[], key: (id: string) => { pk: string; sk: string }, of: (item: Record<string, unknown> | undefined) => T): Promise<Map<string, T>> => {
    const out = new Map<string, T>(userIds.map((id) => [id, of(undefined)]));
    await batchGet(doc, table, [...new Set(userIds)].map(key), (item) => out.set(String(item.pk).slice('USER#'.length), of(item)));
    return out;
  };
  return {
    getFarmSettings: async (farmId) => pick(ALERT_SETTING_FIELDS, await get(k.farmAlertSetting(farmId)), DEFAULT_ALERT_SETTINGS),
    async putFarmSettings(farmId, settings) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.farmAlertSetting(farmId), kind: 'ALERT_SETTING', ...settings } }));
    },
    getAutoSettings: async (deviceId) => pick(AUTO_SETTING_FIELDS, await get(k.vatAutoSetting(deviceId)), DEFAULT_AUTO_SETTINGS),
    async putAutoSettings(deviceId, settings) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.vatAutoSetting(deviceId), kind: 'AUTO_SETTING', ...settings } }));
    },
    getPreferences: async (userId) => toPreferences(await get(k.userAlertPreferences(userId))),
    getPreferencesOf: (userIds) => perUser(userIds, k.userAlertPreferences, toPreferences),
    getEscalation: async (userId) => toEscalation(await get(k.userEscalation(userId))),
    getEscalationOf: (userIds) => perUser(userIds, k.userEscalation, toEscalation),
    async putEscalation(userId, settings) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.userEscalation(userId), kind: 'ESCALATION', ...settings } }));
    },
    async listOrganizationUserIdsOfFarm(farmId) {
      const orgs = new Set<string>();
      let level = (await queryGsi1(doc, table, `FARM#${farmId}`, 'ORG#')).map((i) =>
        String(i.gsi1sk).slice('ORG#'.length),
      );
      // Up the tree (bounded like every walk of it): a role above the farm's organization reaches the farm too.
      for (let depth = 0; depth < ORG_DEPTH && level.length > 0; depth++) {
        const next: string[] = [];
        for (const id of level) {
          if (orgs.has(id)) continue;
          orgs.add(id);
          const parent = (await get(farmsKeys.organization(id)))?.parent_id;
          if (typeof parent === 'string' && parent) next.push(parent);
        }
        level = next;
      }
      const users = new Set<string>();
      for (const id of orgs) {
        for (const item of await queryAll(doc, table, { KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)', ExpressionAttributeValues: { ':p': farmsKeys.organizationPartition(id), ':s': 'USER#' } })) {
          users.add(String(item.sk).slice('USER#'.length));
        }
      }
      return [...users];
    },
    async listUserIdsOfFarm(farmId) {
      const items = await queryGsi1(doc, table, `FARM#${farmId}`, 'USER#');
      return items.map((item) => String(item.gsi1sk).slice('USER#'.length));
    },
    async putPreferences(userId, prefs) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.userAlertPreferences(userId), kind: 'ALERT_PREF', preferences: prefs } }));
    },
    async getEmailRoute(userId) {
      const item = await get(k.userAlertEmail(userId));
      if (!item || typeof item.email !== 'string' || typeof item.topic_arn !== 'string' || typeof item.subscription_arn !== 'string') return undefined;
      const status = item.status === 'pending' || item.status === 'confirmed' || item.status === 'expired' ? item.status : undefined;
      return {
        email: item.email,
        topic_arn: item.topic_arn,
        subscription_arn: item.subscription_arn,
        subscribed_at: String(item.subscribed_at ?? ''),
        ...(status ? { status } : {}),
        ...(typeof item.checked_at === 'string' ? { checked_at: item.checked_at } : {}),
        ...(item.filtered === true ? { filtered: true } : {}),
        ...(typeof item.phone === 'string' && typeof item.sms_subscription_arn === 'string' ? { phone: item.phone, sms_subscription_arn: item.sms_subscription_arn } : {}),
      };
    },
    async putEmailRoute(userId, route: AlertEmailRoute) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.userAlertEmail(userId), kind: 'ALERT_EMAIL', ...route } }));
    },
  };
};
