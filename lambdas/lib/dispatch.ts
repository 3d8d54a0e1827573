import type { APIGatewayProxyEventV2, APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type * as z from 'zod';
import { parseActivityId } from '../../shared/api/actions/farmer-activity';
import type { Access, Contract, ContractReply } from '../../shared/api/contract';
import type { EndpointAuth } from '../../shared/api/endpoints';
import type { Device } from '../../shared/entities/device';
import type { Farm } from '../../shared/entities/farm';
import { MAX_ORGANIZATION_DEPTH, type Organization, type OrganizationRole } from '../../shared/entities/organization';
import { MSG_TOTP_REQUIRED } from '../../shared/roles';
import type { StoredActivity } from '../ports/readings';
import { callerFromClaims, type Caller } from './caller';
import { ForbiddenError, UnauthorizedError, ValidationError } from './errors';
import type { Logger } from './logger';
import type { PortName, Ports } from '../ports/action-ports';

/** An organization with the caller's role in it (theirs there or above) and the organizations above it, top first. */
interface ResolvedOrganization {
  readonly organization: Organization;
  readonly role: OrganizationRole;
  readonly parents: readonly Organization[];
}

/** What an access rule resolved, handed to the action so it does not look it up again. */
type Resolved<A extends Access> = A extends { kind: 'farmMember' }
  ? { readonly farm: Farm }
  : A extends { kind: 'activityMember' }
    ? { readonly farm: Farm; readonly device: Device; readonly activity: StoredActivity }
    : A extends { kind: 'orgAdmin' }
      ? { readonly org: ResolvedOrganization }
      : A extends { kind: 'orgMember'; optional: true }
        ? { readonly org: ResolvedOrganization | undefined }
        : A extends { kind: 'orgMember' }
          ? { readonly org: ResolvedOrganization }
          : unknown;

type ActionContext<C extends Contract, K extends PortName> = {
  /** From verified token claims only; absent only on a public action called without a token. */
  readonly caller: C['access'] extends { kind: 'public' } ? Caller | undefined : Caller;
  readonly deps: Pick<Ports, K>;
  readonly log: Logger;
} & Resolved<C['access']>;

/** An action as the server runs it: its contract, the ports it uses, and what it does. */
export interface ServedAction {
  readonly contract: Contract;
  readonly ports: readonly PortName[];
  run(input: unknown, ctx: { caller: Caller | undefined; deps: Ports; log: Logger } & Partial<{ farm: Farm; device: Device; activity: StoredActivity; org: ResolvedOrganization }>): Promise<unknown>;
}

/**
 * Serves a contract: `run` gets the parsed fields, the caller, the ports it names and what the
 * access rule resolved, and returns what the answer schema accepts. It never checks access
 * itself: dispatch has done that before it runs.
 */
export const serve = <C extends Contract, const K extends PortName = never>(
  contract: C,
  ports: readonly K[],
  run: (input: z.output<C['input']>, ctx: ActionContext<C, K>) => Promise<ContractReply<C>>,
): ServedAction => ({ contract, ports, run: run as unknown as ServedAction['run'] });

/** The ports an access rule reads before the action runs. */
const rulePorts = (rule: Access): PortName[] =>
  rule.kind === 'farmMember'
    ? ['farms']
    : rule.kind === 'activityMember'
      ? ['farms', 'readings']
      : rule.kind === 'orgMember' || rule.kind === 'orgAdmin'
        ? ['organizations']
        : [];

/** Every port an endpoint's actions and their rules use (the function's grants follow from it). */
export const portsOf = (actions: readonly ServedAction[]): PortName[] =>
  [...new Set(actions.flatMap((a) => [...a.ports, ...rulePorts(a.contract.access)]))].sort();

/** zod issues as the client sees them: the schema's own message (the spec's, where it has one). */
const validationMessages = (error: z.ZodError): string | string[] => {
  const messages = [...new Set(error.issues.map((i) => i.message))];
  return messages.length === 1 ? (messages[0] as string) : messages;
};

const bearerOf = (event: APIGatewayProxyEventV2): string | undefined => event.headers?.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];

const resolveCaller = async (event: APIGatewayProxyEventV2, auth: EndpointAuth, ports: Ports): Promise<Caller | undefined> => {
  const claims = (event as APIGatewayProxyEventV2WithJWTAuthorizer).requestContext?.authorizer?.jwt?.claims;
  const token = bearerOf(event);
  // The API takes ID tokens as bearers too (as HTTP API's authorizer does), but only an access
  // token may act for the person in Cognito's self-service calls: an ID token there is refused.
  const asAccess = (verified: Record<string, unknown>) => (token && verified.token_use === 'access' ? { accessToken: token } : {});
  if (claims && auth === 'jwt') return { ...callerFromClaims(claims), ...asAccess(claims) };
  if (auth !== 'public') return undefined;
  if (!token) return undefined;
  try {
    const verified = await ports.verifier.verify(token);
    return { ...callerFromClaims(verified), ...asAccess(verified) };
  } catch {
    return undefined;
  }
};

/** An Admin without an authenticator app has no Admin powers (a farmer's reach only) until they enrol one. */
const isAdmin = (caller: Caller) => caller.groups.includes('Admin') && caller.totp;

/**
 * A farmer reaches only the farms linked to them; an Admin supports every farm. An unknown farm
 * is a 403 like a foreign one, so the answer never tells whether another farm exists.
 */
/** The farm, for a caller linked to it or an Admin (with an authenticator app); else 403. The live-updates subscription (lambdas/live) asks the same. */
export const farmOf = async (ports: Pick<Ports, 'farms'>, caller: Caller, farmId: string): Promise<Farm> => {
  const [linked, farm] = await Promise.all([isAdmin(caller) ? true : ports.farms.isLinked(caller.userId, farmId), ports.farms.getFarm(farmId)]);
  if (!linked || !farm) throw new ForbiddenError();
  return farm;
};

/**
 * An activity by id, only for a caller linked to its device's farm. An unknown device, an unknown
 * activity, another kind, and an activity recorded on another farm (a device moved since) all
 * answer 403 like a foreign farm, so ids cannot be probed.
 */
const activityOf = async (ports: Ports, caller: Caller, id: string, kind: StoredActivity['kind']) => {
  const parsed = parseActivityId(id);
  if (!parsed || parsed.kind !== kind) throw new ForbiddenError();
  const device = await ports.farms.getDevice(parsed.deviceId);
  if (!device) throw new ForbiddenError();
  const farm = await farmOf(ports, caller, device.farm_id);
  const activity = await ports.readings.getActivity(parsed.deviceId, kind, parsed.start);
  if (!activity || activity.farm_id !== farm._id) throw new ForbiddenError();
  return { farm, device, activity };
};

/**
 * An organization with the caller's role in it (farmer §6): a role given in the organization or in
 * any organization above it counts there, the strongest winning (an Admin of a group administers
 * its regions and branches); the Admin group supports every organization. Unknown, foreign and
 * (with `admin`) not-administered organizations all answer 403, so ids cannot be probed.
 */
const organizationOf = async (ports: Ports, caller: Caller, orgId: string, admin: boolean): Promise<ResolvedOrganization> => {
  const organization = await ports.organizations.getOrganization(orgId);
  if (!organization) throw new ForbiddenError();
  const chain: Organization[] = [organization];
  const seen = new Set([organization._id]);
  for (let node = organization; node.parent_id && chain.length < MAX_ORGANIZATION_DEPTH && !seen.has(node.parent_id); ) {
    const parent = await ports.organizations.getOrganization(node.parent_id);
    if (!parent) break;
    seen.add(parent._id);
    chain.push(parent);
    node = parent;
  }
  const roles = isAdmin(caller) ? ['Admin' as const] : await Promise.all(chain.map((o) => ports.organizations.getRole(o._id, caller.userId)));
  const role: OrganizationRole | undefined = roles.includes('Admin') ? 'Admin' : roles.includes('User') ? 'User' : undefined;
  if (!role || (admin && role !== 'Admin')) throw new ForbiddenError();
  return { organization, role, parents: chain.slice(1).reverse() };
};

/** The rule's checks that need no input: a 403 before the fields are even read. */
const checkCaller = (rule: Access, caller: Caller | undefined): void => {
  if (rule.kind === 'public') return;
  if (!caller) throw new UnauthorizedError();
  if (rule.kind !== 'operator') return;
  const member = caller.groups.includes('Admin') || rule.groups.some((g) => caller.groups.includes(g));
  if (!member) throw new ForbiddenError();
  // Operator roles act only with TOTP enrolled; the app sends them to the enrolment screen on this message.
  if (!caller.totp) throw new ForbiddenError(MSG_TOTP_REQUIRED);
};

const fieldOf = (input: unknown, field: string): string => String((input as Record<string, unknown>)[field] ?? '');

/** The rule's checks on the parsed fields; answers what they resolved. */
const resolveAccess = async (rule: Access, input: unknown, caller: Caller | undefined, ports: Ports) => {
  if (rule.kind === 'farmMember') return { farm: await farmOf(ports, caller as Caller, fieldOf(input, rule.field)) };
  if (rule.kind === 'activityMember') return activityOf(ports, caller as Caller, fieldOf(input, rule.field), rule.activity);
  if (rule.kind === 'orgMember' || rule.kind === 'orgAdmin') {
    const id = fieldOf(input, rule.field);
    if (id === '' && rule.kind === 'orgMember' && rule.optional) return { org: undefined };
    return { org: await organizationOf(ports, caller as Caller, id, rule.kind === 'orgAdmin') };
  }
  return {};
};

interface EndpointOptions {
  readonly auth: EndpointAuth;
  readonly actions: readonly ServedAction[];
  /** Built lazily (lambdas/composition/ports-from-env.ts); tests pass their own. */
  readonly ports: Ports;
  /** Loads the ports a call names before it runs (portsFromEnv's `load`); absent when the ports are built already. */
  readonly loadPorts?: (names: readonly PortName[]) => Promise<void>;
  readonly log: Logger;
  /** Parse every answer with its contract's answer schema (local stack and tests; not in AWS). */
  readonly checkAnswers?: boolean;
}

/**
 * Dispatch on the form field `type` (spec §7). Order: no valid token is a 401 before anything
 * else (as API Gateway's authorizer answers before the Lambda runs) unless the type is public;
 * an unknown type is a 422 naming it; an operator rule the caller's groups do not meet is a 403;
 * then the schema (422); then the farm, activity or organization rule (403); then the action.
 */
export const dispatch = (options: EndpointOptions) => {
  const byType = new Map(options.actions.map((a) => [a.contract.type, a]));
  return async (event: APIGatewayProxyEventV2): Promise<unknown> => {
    // No body at all is an empty form; a body the parsers could not read stays a string.
    const body: unknown = event.body === undefined || event.body === '' ? {} : event.body;
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    const type = fields?.type;
    const action = typeof type === 'string' ? byType.get(type) : undefined;
    // Only what this call can use: the token check of a public endpoint, the action's ports and its rule's.
    await options.loadPorts?.([...(options.auth === 'public' ? (['verifier'] as const) : []), ...(action ? [...action.ports, ...rulePorts(action.contract.access)] : [])]);
    const caller = await resolveCaller(event, options.auth, options.ports);
    if (!caller && action?.contract.access.kind !== 'public') throw new UnauthorizedError();
    if (!fields) throw new ValidationError('Send the fields as application/x-www-form-urlencoded or application/json.');
    if (!action) throw new ValidationError(`Unknown type: ${typeof type === 'string' ? type.slice(0, 64) : '(none)'}`);

    const { contract } = action;
    checkCaller(contract.access, caller);
    const parsed = contract.input.safeParse(fields);
    if (!parsed.success) throw new ValidationError(validationMessages(parsed.error));
    const resolved = await resolveAccess(contract.access, parsed.data, caller, options.ports);
    const log = options.log.child({ type: contract.type, user: caller?.userId });
    const answer = await action.run(parsed.data, { caller, deps: options.ports, log, ...resolved });
    if (options.checkAnswers) {
      const checked = contract.answer.safeParse(answer);
      if (!checked.success) throw new Error(`${contract.type} answered outside its contract: ${checked.error.message}`);
    }
    return answer;
  };
};
