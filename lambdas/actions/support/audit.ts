import type { AuditArea, AuditEntry } from '../../../shared/entities/audit';
import type { Caller } from '../../lib/caller';
import { ValidationError } from '../../lib/errors';
import type { Ports } from '../../ports/action-ports';
import type { AuditedWrite } from '../../ports/audit';

/** A change refused because another operator changed the same thing between our read and our write. */
export const MSG_CHANGED_MEANWHILE = 'Someone else changed this meanwhile: reload the page and try again.';

type Change = { readonly action: string; readonly target: string; readonly before: string; readonly after: string };

/**
 * The entry for a change by the caller: their token sub and the email on their profile (the
 * token carries no email), so the page can say who without a lookup.
 */
const entryOf = async (deps: Pick<Ports, 'farms' | 'now'>, caller: Caller, change: Change): Promise<AuditEntry> => {
  const me = await deps.farms.getUser(caller.userId);
  return { at: deps.now().toISOString(), by: { _id: caller.userId, email: me?.email ?? caller.username }, ...change };
};

/**
 * An operator change of our items and its audit entry, in one transaction (decision 050): the
 * change is never made without its entry, nor the entry written for a change not made. A write
 * whose `before` no longer holds is a 422 and nothing is stored.
 */
export const commitChange = async (deps: Pick<Ports, 'farms' | 'auditedChanges' | 'now'>, caller: Caller, area: AuditArea, change: Change, writes: readonly AuditedWrite[]): Promise<void> => {
  const outcome = await deps.auditedChanges.commit(area, await entryOf(deps, caller, change), writes);
  if (outcome === 'conflict') throw new ValidationError(MSG_CHANGED_MEANWHILE);
};

/**
 * The entry for a change outside our tables (a role is a Cognito group: no transaction spans
 * both), written before the change is asked for, so a change is never made unrecorded; if
 * Cognito then refuses, the entry stands for an attempt (decision 050).
 */
export const recordBeforeChange = async (deps: Pick<Ports, 'farms' | 'auditWrite' | 'now'>, caller: Caller, area: AuditArea, change: Change): Promise<void> => {
  await deps.auditWrite.record(area, await entryOf(deps, caller, change));
};
