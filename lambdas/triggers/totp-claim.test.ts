import { describe, expect, it } from 'vitest';
import { TOTP_CLAIM } from '../../shared/roles';
import { totpClaimTrigger } from './totp-claim';

const base = { region: 'us-east-1', userPoolId: 'pool-1', userName: 'sub-1', callerContext: { awsSdkVersion: '1', clientId: 'c' }, triggerSource: 'TokenGeneration_Authentication', request: { userAttributes: {} }, response: {} };

describe('the pre-token-generation trigger (TOTP claim)', () => {
  const confirmed = new Map([['pool-1/sub-1', 1_764_300_000]]);
  const trigger = totpClaimTrigger(async (pool, user) => confirmed.get(`${pool}/${user}`));

  it("puts the confirmation time on both tokens in AWS's version 2 event (the access token is the API's bearer)", async () => {
    const out = (await trigger({ ...base, version: '2' } as never)) as { response: unknown };
    const claims = { [TOTP_CLAIM]: '1764300000' };
    expect(out.response).toEqual({ claimsAndScopeOverrideDetails: { idTokenGeneration: { claimsToAddOrOverride: claims }, accessTokenGeneration: { claimsToAddOrOverride: claims } } });
  });

  it('answers version 1 (cognito-local) on the ID token, and adds no claim for a user without a confirmed app', async () => {
    const out = (await trigger({ ...base, version: '1', userName: 'sub-2' } as never)) as { response: unknown };
    expect(out.response).toEqual({ claimsOverrideDetails: { claimsToAddOrOverride: {} } });
  });
});
