/**
 * API throttling: the HTTP API default stage limits in AWS, and the local gateway's token
 * bucket. Over the limit is a 429 (spec §8).
 */
export const API_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;
