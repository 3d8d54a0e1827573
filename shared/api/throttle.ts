/**
 * Stage-wide throttling of the HTTP API (CDK api construct) and of the local gateway's token
 * bucket: one source for both. The account default (10,000 rps, burst 5,000) would let one
 * runaway client or a scripted attack use up the account's Lambda concurrency (1,000 by
 * default) and run up on-demand DynamoDB costs. Real load is small: a dashboard refreshes every
 * two minutes per open tab, so even 2,000 farmers online at milking time stay near 35 rps.
 * 100 rps steady with bursts of 200 leaves room for that peak plus operator bulk pages; excess
 * requests get a 429, which the spec §8 error catalogue covers.
 */
export const API_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;

/**
 * Per caller: at most `limit` API requests from one IP address in any window of
 * `windowSeconds`; more get a 429 until the rate falls below it, so one script cannot use up the
 * stage throttle above for every farmer. In AWS the rate-based rule of the distributions' WAF web
 * ACL (cdk/lib/constructs/edge-web-acl.ts); locally the gateway's per-IP window
 * (local/stand-ins/api-gateway.ts). 3,000 in 5 minutes is 10 a second sustained from one address
 * (a farm office or an operator's bulk pages behind one NAT), far over a dashboard's refresh.
 */
export const API_RATE_PER_IP = { limit: 3000, windowSeconds: 300 } as const;
