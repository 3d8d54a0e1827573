import type { AuditArea } from '../../shared/entities/audit';
import type { Caller } from '../lib/caller';
import type { Ports } from '../ports/action-ports';

/**
 * Records an administrative change (issue 18) with who made it: the caller's token sub and the
 * email on their profile (the token carries no email), so the page can say who without a lookup.
 */
export const recordChange = async (
  deps: Pick<Ports, 'farms' | 'auditWrite' | 'now'>,
  caller: Caller,
  area: AuditArea,
  change: { readonly action: string; readonly target: string; readonly before: string; readonly after: string },
): Promise<void> => {
  const me = await deps.farms.getUser(caller.userId);
  await deps.auditWrite.record(area, { at: deps.now().toISOString(), by: { _id: caller.userId, email: me?.email ?? caller.username }, ...change });
};
