import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayLimitsFromEnv, perIpWindow, startApiGateway } from './api-gateway';

describe('the per-IP limit (the WAF rate rule in AWS)', () => {
  it('lets an address make `limit` requests in any trailing window, refuses the next, and counts each address alone', () => {
    let t = 0;
    const allow = perIpWindow({ limit: 3, windowSeconds: 60 }, () => t);
    expect([allow('10.0.0.1'), allow('10.0.0.1'), allow('10.0.0.1')]).toEqual([true, true, true]);
    expect(allow('10.0.0.1')).toBe(false);
    // Another address is not held back by the first one's traffic.
    expect(allow('10.0.0.2')).toBe(true);
    t = 59_999;
    expect(allow('10.0.0.1')).toBe(false);
    // The first three fall out of the window; refused requests never counted.
    t = 60_001;
    expect([allow('10.0.0.1'), allow('10.0.0.1'), allow('10.0.0.1'), allow('10.0.0.1')]).toEqual([true, true, true, false]);
  });

  it('is applied by the local gateway (API_RATE_PER_IP unless told), as a 429 before the route runs', async () => {
    let calls = 0;
    const { server, url } = await startApiGateway({
      port: 0,
      loadHandler: async () => async () => {
        calls += 1;
        return { statusCode: 200, body: '"ok"' };
      },
      verifier: { verify: () => Promise.reject(new Error('no tokens here')) },
      ratePerIp: { limit: 3, windowSeconds: 60 },
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = url.replace(/:0$/, `:${(server.address() as AddressInfo).port}`);
    const post = async () => (await fetch(`${base}/api/user`, { method: 'POST', body: 'type=USER_CHECK_LOGIN_STATUS', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status;
    expect([await post(), await post(), await post(), await post()]).toEqual([200, 200, 200, 429]);
    expect(calls).toBe(3);
  });

  it('is lifted for a load run only by API_RATE_PER_IP (and the stage by API_THROTTLE_RATE); unset, the defaults hold; a bad value is refused by name', () => {
    expect(gatewayLimitsFromEnv({})).toEqual({});
    expect(gatewayLimitsFromEnv({ API_RATE_PER_IP: '1000000' })).toEqual({ ratePerIp: { limit: 1_000_000, windowSeconds: 300 } });
    expect(gatewayLimitsFromEnv({ API_RATE_PER_IP: '', API_THROTTLE_RATE: '400' })).toEqual({ throttle: { rateLimit: 400, burstLimit: 800 } });
    expect(() => gatewayLimitsFromEnv({ API_RATE_PER_IP: 'lots' })).toThrow('API_RATE_PER_IP=lots is not a whole number');
    expect(() => gatewayLimitsFromEnv({ API_THROTTLE_RATE: '0' })).toThrow('API_THROTTLE_RATE=0');
  });

  it('keeps counting right with a lifted limit: old requests leave the window from the front', () => {
    let t = 0;
    const allow = perIpWindow({ limit: 20_000, windowSeconds: 300 }, () => t);
    for (let k = 0; k < 20_000; k += 1) {
      t = k;
      expect(allow('127.0.0.1')).toBe(true);
    }
    expect(allow('127.0.0.1')).toBe(false);
    t = 300_000;
    // The first (at 0 ms) has left the window: exactly one more is allowed.
    expect([allow('127.0.0.1'), allow('127.0.0.1')]).toEqual([true, false]);
  });
});
