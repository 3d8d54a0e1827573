import type * as z from 'zod';
import type { ActivityKind } from '../telemetry/activities';
import type { OperatorGroup } from '../roles';
import type { EndpointPath } from './endpoints';

/**
 * Who may call an action (farmer §6, operator §6). A closed set: the server's dispatch
 * (lambdas/lib/dispatch.ts) enforces the rule before the action runs and hands the action what
 * the rule resolved; the authorization matrix test (test/integration/authorization-matrix.test.ts)
 * calls every declared action as every kind of caller and expects exactly what the rule says.
 */
export type Access =
  /** No token needed (sign-in, sign-up, password reset, login status); a valid token is still read. */
  | { readonly kind: 'public' }
  /** Any signed-in caller, acting on their own record only (the caller comes from the token). */
  | { readonly kind: 'self' }
  /**
   * The farm named by `field` (a farm id) is linked to the caller; Admin reaches every farm.
   * An unknown farm is a 403 like a foreign one, so the answer never says whether it exists.
   */
  | { readonly kind: 'farmMember'; readonly field: string }
  /**
   * The activity named by `field` (an activityId: device~kind~start, of `activity` kind) belongs
   * to a farm linked to the caller (Admin: any). Unknown ids answer 403 like foreign ones.
   */
  | { readonly kind: 'activityMember'; readonly field: string; readonly activity: ActivityKind }
  /**
   * A member of one of the operator groups (Cognito groups only); Admin always qualifies. No
   * groups: Admin only (`access.admin()`).
   */
  | { readonly kind: 'operator'; readonly groups: readonly OperatorGroup[] }
  /**
   * The organization named by `field` has the caller in it: a role there or in an organization
   * above it (farmer §6); the Admin group reaches every organization. Unknown ids answer 403 like
   * foreign ones. With `optional`, an empty field passes with no organization (the caller's list).
   */
  | { readonly kind: 'orgMember'; readonly field: string; readonly optional: boolean }
  /** As orgMember, and the caller's role there (or above) is the organization role Admin (farmer §6). */
  | { readonly kind: 'orgAdmin'; readonly field: string };

export const access = {
  public: { kind: 'public' } as const,
  self: { kind: 'self' } as const,
  farmMember: (field = 'farm') => ({ kind: 'farmMember', field }) as const,
  activityMember: (activity: ActivityKind, field = 'activity_id') => ({ kind: 'activityMember', field, activity }) as const,
  /** Admin only (the Admin group, with a confirmed authenticator app). */
  admin: () => ({ kind: 'operator', groups: [] as readonly OperatorGroup[] }) as const,
  /** Admin and the groups named: at least one (Admin alone is `access.admin()`). */
  operator: (group: OperatorGroup, ...more: OperatorGroup[]) => ({ kind: 'operator', groups: [group, ...more] }) as const,
  orgMember: (field = 'organization_id') => ({ kind: 'orgMember', field, optional: false }) as const,
  /** orgMember, or no organization at all when the field is empty (the caller's own list). */
  orgMemberOrNone: (field = 'organization_id') => ({ kind: 'orgMember', field, optional: true }) as const,
  orgAdmin: (field = 'organization_id') => ({ kind: 'orgAdmin', field }) as const,
} satisfies Record<string, Access | ((...args: never[]) => Access)>;

/**
 * One API action: where it is (spec §7 path and `type`), what it takes (the zod schema of the
 * whole form, `type` included), what it answers, and who may call it. The web client calls by
 * contract (frontend/src/lib/api-client.ts `call`), the server serves by contract
 * (lambdas/lib/dispatch.ts `serve`): neither writes a path or a type string again.
 */
export interface Contract<T extends string = string, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, A extends Access = Access> {
  readonly path: EndpointPath;
  readonly type: T;
  readonly input: I;
  readonly answer: O;
  readonly access: A;
}

/**
 * Where an action is (its path and `type`) without its schemas: enough to send it. The web app's
 * start-up calls (shared/api/actions/start-up.ts) go out by address before the contracts' zod
 * schemas have loaded; the answer is checked against the contract afterwards.
 */
export type ActionAddress<T extends string = string> = Pick<Contract<T>, 'path' | 'type'>;

export const contract = <const T extends string, I extends z.ZodType, O extends z.ZodType, const A extends Access>(c: Contract<T, I, O, A>): Contract<T, I, O, A> => c;

/** The fields a client sends (the form without `type`). */
export type ContractFields<C extends Contract> = Omit<z.input<C['input']>, 'type'>;
/** The answer as the client reads it (after the answer schema). */
export type ContractAnswer<C extends Contract> = z.output<C['answer']>;
/** What the server's action may return: anything the answer schema accepts. */
export type ContractReply<C extends Contract> = z.input<C['answer']>;
