import { describe, expect, it } from 'vitest';
import { TOTP_CLAIM } from '../../shared/roles';
import { totpClaimTrigger } from './totp-claim';

const base = { region: 'us-east-1', userPoolId: 'pool-1', userName: 'sub-1', callerContext: { awsSdkVersion: '1', clientId: 'c' }, triggerSource: 'TokenGeneration_Authentication', request: { userAttributes: {} }, response: {} };

describe('the pre-token-generation trigger (TOTP claim)', () => {
  const enrolled = new Set(['pool-1/sub-1']);
  const trigger = totpClaimTrigger(async (pool, user) => enrolled.has(`${pool}/${user}`));

  it("puts 'true' on both tokens for an enrolled user in AWS's version 2 event (the access token is the API's bearer)", async () => {
    const out = (await trigger({ ...base, version: '2' } as never)) as { response: unknown };
    const claims = { [TOTP_CLAIM]: 'true' };
    expect(out.response).toEqual({ claimsAndScopeOverrideDetails: { idTokenGeneration: { claimsToAddOrOverride: claims }, accessTokenGeneration: { claimsToAddOrOverride: claims } } });
  });

  it("answers version 1 (cognito-local) on the ID token, 'false' for a user without an app", async () => {
    const out = (await trigger({ ...base, version: '1', userName: 'sub-2' } as never)) as { response: unknown };
    expect(out.response).toEqual({ claimsOverrideDetails: { claimsToAddOrOverride: { [TOTP_CLAIM]: 'false' } } });
  });
});
