import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { EquipmentRepository } from '../../lambdas/ports/equipment';
import type { FarmRepository } from '../../lambdas/ports/farms';
import type { InstallRepository } from '../../lambdas/ports/installs';
import type { MilkingWindowsRepository } from '../../lambdas/ports/milking-windows';
import type { OrganizationRepository } from '../../lambdas/ports/organizations';
import { unitThingName } from '../../shared/entities/install';
import { normaliseEmail } from '../../shared/entities/user';
import { knodeThingOf } from '../simulator/knode-model';
import { DEMO_ACCOUNTS, DEMO_DEVICES, DEMO_EQUIPMENT, DEMO_FARMS, DEMO_KNODE, DEMO_MILKING_WINDOWS, DEMO_ORGANIZATION, DEMO_PASSWORD, DEMO_UNIT_IMEIS, type DemoAccount } from './demo-data';

const subOf = async (cognito: CognitoIdentityProviderClient, userPoolId: string, email: string): Promise<string | undefined> => {
  try {
    const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
    return user.UserAttributes?.find((a) => a.Name === 'sub')?.Value;
  } catch (err) {
    if ((err as { name?: string }).name === 'UserNotFoundException') return undefined;
    throw err;
  }
};

const ensureCognitoUser = async (cognito: CognitoIdentityProviderClient, userPoolId: string, a: DemoAccount): Promise<string> => {
  const existing = await subOf(cognito, userPoolId, a.email);
  if (existing) return existing;
  await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId: userPoolId,
      Username: a.email,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: a.email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'given_name', Value: a.firstName },
        { Name: 'family_name', Value: a.lastName },
        { Name: 'phone_number', Value: a.phone },
      ],
    }),
  );
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: a.email, Password: DEMO_PASSWORD, Permanent: true }));
  if (a.group) await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: a.email, GroupName: a.group }));
  const sub = await subOf(cognito, userPoolId, a.email);
  if (!sub) throw new Error(`Seed: Cognito did not keep ${a.email}`);
  return sub;
};

/**
 * Seeds the demo farms, devices, knode assets and accounts. Idempotent: an account that exists
 * keeps its id and password, and nothing a person changed in a profile is overwritten.
 */
export const seedDemo = async (farms: FarmRepository, cognito: CognitoIdentityProviderClient, userPoolId: string, now = new Date()) => {
  for (const f of DEMO_FARMS) {
    const stored = await farms.getFarm(f._id);
    // A data folder from before the supplier code gets it (the partner views decide by it).
    if (!stored) await farms.putFarm(f);
    else if (!stored.supplier && f.supplier) await farms.putFarm({ ...stored, supplier: f.supplier });
  }
  for (const d of DEMO_DEVICES) if (!(await farms.getDevice(d._id))) await farms.putDevice(d);
  for (const [farmId, assets] of Object.entries(DEMO_KNODE)) {
    if ((await farms.listKnodeAssets(farmId)).length === 0) for (const a of assets) await farms.putKnodeAsset(farmId, a);
    const farm = DEMO_FARMS.find((f) => f._id === farmId);
    if (farm) await farms.putKnodeGateway(knodeThingOf(farm.fonterra_id), farmId);
  }
  const ids: Record<string, string> = {};
  for (const a of DEMO_ACCOUNTS) {
    const sub = await ensureCognitoUser(cognito, userPoolId, a);
    ids[a.email] = sub;
    await farms.putUser(
      {
        _id: sub,
        firstName: a.firstName,
        lastName: a.lastName,
        email: normaliseEmail(a.email),
        phone: a.phone,
        role: a.group === 'MilkQuality' ? 'Milk Quality' : (a.group ?? 'User'),
        is_herd_enabled: a.herdToken ? 1 : 0,
        ...(a.herdToken ? { token_id: a.herdToken } : {}),
        ...(a.demo ? { is_demo: true } : {}),
        subscribed: true,
        email_verify: 2,
        phone_verify: 2,
        created_at: now.toISOString(),
      },
      { onlyIfNew: true },
    );
    for (const farmId of a.farms) await farms.linkUserToFarm(sub, farmId);
  }
  return ids;
};

/** Seeds each demo farm's controller unit (the installer's config search finds it); a unit already stored is kept. */
export const seedDemoUnits = async (installs: InstallRepository, now = new Date()) => {
  for (const [farmId, imei] of Object.entries(DEMO_UNIT_IMEIS)) {
    if (!(await installs.getUnit(imei))) await installs.putUnit({ _id: unitThingName(imei), imei, farm_id: farmId, low_connectivity: false, created_at: now.toISOString() });
  }
};

/** Seeds the demo farms' cooling plants; a plant someone has described since (the builder) is kept. */
export const seedDemoEquipment = async (equipment: EquipmentRepository, now = new Date()) => {
  for (const [farmId, items] of Object.entries(DEMO_EQUIPMENT)) {
    if (!(await equipment.getEquipment(farmId))) await equipment.putEquipment(farmId, items, { userId: 'seed', at: now.toISOString() });
  }
};

/** Seeds the demo farms' milking windows; a farm whose window was imported since keeps it. */
export const seedDemoMilkingWindows = async (windows: MilkingWindowsRepository, now = new Date()) => {
  const have = new Set((await windows.list(DEMO_MILKING_WINDOWS.map((w) => w.farm_id))).map((w) => w.farm_id));
  for (const w of DEMO_MILKING_WINDOWS) if (!have.has(w.farm_id)) await windows.put({ ...w, updated_at: now.toISOString(), updated_by: 'seed' });
};

/**
 * Seeds the demo organization with its farms and roles (`ids`: the accounts' ids by email, from
 * seedDemo). Only when it is not there: what people changed in it since (users added or unlinked,
 * sub-organizations) is kept at the next start.
 */
export const seedDemoOrganization = async (organizations: OrganizationRepository, ids: Readonly<Record<string, string>>) => {
  const { organization, farms, roles } = DEMO_ORGANIZATION;
  // The node first: links and roles are only ever added under a node that is there (decision 046).
  if (!(await organizations.createOrganization(organization))) return;
  for (const farmId of farms) await organizations.linkFarm(organization._id, farmId);
  for (const r of roles) {
    const userId = ids[r.email];
    if (!userId) throw new Error(`Seed: no demo account ${r.email} for the demo organization`);
    await organizations.setRole(organization._id, userId, r.role);
  }
};
