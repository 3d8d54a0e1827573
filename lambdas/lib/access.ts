import type { Farm } from '../../shared/entities/farm';
import type { OperatorGroup } from '../../shared/roles';
import type { FarmRepository } from '../adapters/dynamodb/farms-repository';
import type { Caller } from './caller';
import { ForbiddenError } from './errors';

/** Operator pages need one of the given Cognito groups (spec §6); Admin always qualifies. */
export const requireOperator = (caller: Caller, ...groups: OperatorGroup[]): void => {
  if (caller.groups.includes('Admin')) return;
  if (!groups.some((g) => caller.groups.includes(g))) throw new ForbiddenError();
};

/**
 * A farmer reaches only the farms linked to them; an Admin supports every farm. The farm is
 * returned so the action does not read it twice. An unknown farm is a 403 like a foreign
 * one, so the answer never tells whether another farm exists.
 */
export const requireFarmMember = async (farms: FarmRepository, caller: Caller, farmId: string): Promise<Farm> => {
  const [linked, farm] = await Promise.all([
    caller.groups.includes('Admin') ? Promise.resolve(true) : farms.isLinked(caller.userId, farmId),
    farms.getFarm(farmId),
  ]);
  if (!linked || !farm) throw new ForbiddenError();
  return farm;
};
