/**
 * A route `handle` for screens of the farmer shell that need no farm (operator pages, the
 * person's own settings): a user without farms is not routed away from them (farmer §6). Its own
 * module so the route table can import it without loading the shell.
 */
export const FARM_OPTIONAL = { farm: 'optional' } as const;

export const isFarmOptional = (handle: unknown): boolean =>
  handle !== null && typeof handle === 'object' && 'farm' in handle && handle.farm === FARM_OPTIONAL.farm;
