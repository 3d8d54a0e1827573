/**
 * Stage-wide throttling of the HTTP API (CDK api construct) and of the local gateway's token
 * bucket: one source for both. The account default (10,000 rps, burst 5,000) would let one
 * runaway client or a scripted attack use up the account's Lambda concurrency (1,000 by
 * default) and run up on-demand DynamoDB costs. The stage is sized for the load the stack is
 * measured at (API_LOAD_RATE, `npm run bench:load`): 300 rps steady with bursts of 600 lets 200
 * reads a second through with room for a burst of page loads at milking time, and stays far
 * under the account's concurrency (200 rps at about 100 ms is some 20 Lambdas at once). Excess
 * requests get a 429, which the spec §8 error catalogue covers; one address is held to far less
 * by API_RATE_PER_IP below (docs/decisions/114).
 */
export const API_THROTTLE = { rateLimit: 300, burstLimit: 600 } as const;

/** The legitimate reads a second the API must carry (the load run of `npm run bench:load`): the stage throttle passes them. */
export const API_LOAD_RATE = 200;

/**
 * Per caller: at most `limit` API requests from one IP address in any window of
 * `windowSeconds`; more get a 429 until the rate falls below it, so one script cannot use up the
 * stage throttle above for every farmer. In AWS the rate-based rule of the distributions' WAF web
 * ACL (cdk/lib/constructs/edge-web-acl.ts); locally the gateway's per-IP window
 * (local/stand-ins/api-gateway.ts). 3,000 in 5 minutes is 10 a second sustained from one address
 * (a farm office or an operator's bulk pages behind one NAT), far over a dashboard's refresh.
 */
export const API_RATE_PER_IP = { limit: 3000, windowSeconds: 300 } as const;
