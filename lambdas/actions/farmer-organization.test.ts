import { describe, expect, it } from 'vitest';
import type { Organization } from '../../shared/entities/organization';
import type { User } from '../../shared/entities/user';
import type { Caller } from '../lib/caller';
import type { ServedAction } from '../lib/dispatch';
import { createLogger } from '../lib/logger';
import type { Ports } from '../ports/action-ports';
import { farmerOrganizationHandlers } from './farmer-organization';

/** ORGANIZATION_USER_ADD with profiles sharing one address (stored before sign-up refused a taken address, or imported). */
const addUser = farmerOrganizationHandlers.find((a) => a.contract.type === 'ORGANIZATION_USER_ADD') as ServedAction;
const caller: Caller = { userId: 'admin-1', username: 'admin@farm.nz', groups: [], role: 'User', totp: false };
const organization = { _id: 'org-1', name: 'North Group', tag: 'Group' } as Organization;
const profile = (id: string, emailVerify: 1 | 2) => ({ _id: id, email: 'kiri@farm.nz', firstName: 'Kiri', lastName: 'Ngata', email_verify: emailVerify }) as User;

const run = async (profiles: User[]) => {
  const roles: [string, string][] = [];
  const deps = {
    farms: { findUsersByEmail: async () => profiles },
    organizationsWrite: { addMember: async (_org: string, userId: string) => (roles.push([userId, 'User']), { role: 'User' }) },
  } as unknown as Ports;
  const ctx = { caller, deps, log: createLogger({}, 'error', () => undefined), org: { organization, role: 'Admin' as const, parents: [] } };
  try {
    return { answer: await addUser.run({ type: 'ORGANIZATION_USER_ADD', organization_id: 'org-1', email: 'Kiri@Farm.NZ' }, ctx), roles };
  } catch (err) {
    return { error: (err as Error).message, roles };
  }
};

describe('ORGANIZATION_USER_ADD: the address must be verified by its owner', () => {
  it('refuses an address only unverified profiles carry, storing no role', async () => {
    expect(await run([profile('squatter', 1)])).toEqual({ error: 'That person has not verified their email address yet.', roles: [] });
  });

  it('adds the profile that verified the address, not the first one found', async () => {
    expect(await run([profile('squatter', 1), profile('owner', 2)])).toEqual({ answer: { user_id: 'owner', role: 'User' }, roles: [['owner', 'User']] });
  });
});
