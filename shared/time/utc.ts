/** UTC day (YYYY-MM-DD) and hour (YYYY-MM-DDTHH) of an ISO date-time: the Readings table's buckets. */
export const dayOf = (iso: string): string => iso.slice(0, 10);
export const hourOf = (iso: string): string => iso.slice(0, 13);
