import { describe, expect, it } from 'vitest';
import type { User } from '../../shared/entities/user';
import type { Caller } from '../lib/caller';
import type { ServedAction } from '../lib/dispatch';
import { createLogger } from '../lib/logger';
import type { Ports } from '../ports/action-ports';
import { settingProfileHandlers } from './setting-profile';

/** USER_PROFILE_EDIT_BASE keeps the stored profile and the Cognito account in step when the second write fails. */
const editBase = settingProfileHandlers.find((a) => a.contract.type === 'USER_PROFILE_EDIT_BASE') as ServedAction;
const caller: Caller = { userId: 'u1', username: 'kiri@example.nz', groups: [], role: 'User', totp: false };
const stored = (): User =>
  ({ _id: 'u1', email: 'kiri@example.nz', firstName: 'Kiri', lastName: 'Ngata', phone: '+64211234567', phone_verify: 2, email_verify: 2, subscribed: true, role: 'User' }) as User;

const fakes = (refuse: boolean) => {
  let user = stored();
  const cognito: unknown[] = [];
  const deps = {
    userProfiles: {
      getUser: async () => user,
      updateUser: async (_id: string, change: Partial<User>) => {
        user = { ...user, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
        return user;
      },
    },
    account: {
      updateAttributes: async (_username: string, change: unknown) => {
        if (refuse) throw Object.assign(new Error('Invalid phone number format.'), { name: 'InvalidParameterException' });
        cognito.push(change);
      },
    },
  } as unknown as Ports;
  return { deps, user: () => user, cognito };
};
const run = (deps: Ports, user: Record<string, unknown>) =>
  editBase.run({ type: 'USER_PROFILE_EDIT_BASE', user: { firstName: 'Aroha', lastName: 'Smith', phone: '+64 27 555 0100', ...user } }, { caller, deps, log: createLogger({}, 'error', () => undefined) });

describe('USER_PROFILE_EDIT_BASE', () => {
  it('stores the change and a new phone unverified, and tells Cognito the same', async () => {
    const f = fakes(false);
    await run(f.deps, {});
    expect(f.user()).toMatchObject({ firstName: 'Aroha', lastName: 'Smith', phone: '+64275550100', phone_verify: 1 });
    expect(f.cognito).toEqual([{ firstName: 'Aroha', lastName: 'Smith', phone: '+64275550100' }]);
  });

  it('puts the stored profile back, verified phone included, when Cognito refuses the change', async () => {
    const f = fakes(true);
    await expect(run(f.deps, { subscribed: false })).rejects.toThrow('Invalid phone number format.');
    expect(f.user()).toEqual(stored());
  });

  it('leaves Cognito alone when the stored profile cannot be written', async () => {
    const f = fakes(false);
    (f.deps.userProfiles as { updateUser: unknown }).updateUser = async () => {
      throw Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' });
    };
    await expect(run(f.deps, {})).rejects.toThrow('Throughput exceeds');
    expect(f.cognito).toEqual([]);
  });
});

/** USER_PROFILE_VERIFY_CHECK_*: the flag follows the value Cognito verified, read back, never only the code's acceptance. */
describe('verifying a phone or email', () => {
  const action = (type: string) => settingProfileHandlers.find((a) => a.contract.type === type) as ServedAction;
  const unverified = (): User => ({ ...stored(), phone: '+64275550100', phone_verify: 1, email_verify: 1 });
  const withCognito = (contact: { email?: string; phone?: string }) => {
    let user = unverified();
    const deps = {
      userProfiles: {
        getUser: async () => user,
        updateUser: async (_id: string, change: Partial<User>) => {
          user = { ...user, ...change };
          return user;
        },
      },
      account: { verifyAttribute: async () => true, contactOf: async () => contact },
    } as unknown as Ports;
    return { deps, user: () => user };
  };
  const check = (deps: Ports, type: string) =>
    action(type).run({ type, verification: '123456' }, { caller: { ...caller, accessToken: 'access' }, deps, log: createLogger({}, 'error', () => undefined) });

  it("refuses (422) and changes nothing when Cognito's number is not the profile's: the code went to another number", async () => {
    // The attack: the profile holds someone else's number, Cognito the caller's own, whose code they have.
    const f = withCognito({ email: 'kiri@example.nz', phone: '+64219999999' });
    await expect(check(f.deps, 'USER_PROFILE_VERIFY_CHECK_PHONE')).rejects.toMatchObject({ status: 422, message: 'The verified number is not the one on your profile. Save your profile and verify it again.' });
    expect(f.user()).toEqual(unverified());
  });

  it("refuses (422) and changes nothing when Cognito's email is not the profile's", async () => {
    const f = withCognito({ email: 'other@example.nz', phone: '+64275550100' });
    await expect(check(f.deps, 'USER_PROFILE_VERIFY_CHECK_EMAIL')).rejects.toMatchObject({ status: 422 });
    expect(f.user()).toEqual(unverified());
  });

  it('marks the profile verified when Cognito verified its value (compared normalised)', async () => {
    const f = withCognito({ email: 'Kiri@Example.NZ', phone: '+64275550100' });
    await check(f.deps, 'USER_PROFILE_VERIFY_CHECK_PHONE');
    await check(f.deps, 'USER_PROFILE_VERIFY_CHECK_EMAIL');
    expect(f.user()).toMatchObject({ phone_verify: 2, email_verify: 2 });
  });
});
