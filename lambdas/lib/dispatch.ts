import type { APIGatewayProxyEventV2, APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { z } from 'zod';
import type { EndpointAuth } from '../../shared/api/endpoints';
import { callerFromClaims, type Caller } from './caller';
import { UnauthorizedError, ValidationError } from './errors';
import type { Logger } from './logger';
import type { TokenVerifier } from './token-verifier';

export interface ActionContext<D> {
  readonly caller: Caller;
  readonly deps: D;
  readonly log: Logger;
}
export interface PublicActionContext<D> {
  readonly caller: Caller | undefined;
  readonly deps: D;
  readonly log: Logger;
}

/** One API action: the zod schema of its fields (from shared/) and what it does. */
export type ActionDef<D> =
  | {
      readonly access: 'signedIn';
      readonly schema: z.ZodType;
      run(input: unknown, ctx: ActionContext<D>): Promise<unknown>;
    }
  | {
      readonly access: 'public';
      readonly schema: z.ZodType;
      run(input: unknown, ctx: PublicActionContext<D>): Promise<unknown>;
    };

/** An action for a signed-in caller; permission checks beyond that happen inside `run`. */
export const action = <S extends z.ZodType, D>(
  schema: S,
  run: (input: z.output<S>, ctx: ActionContext<D>) => Promise<unknown>,
): ActionDef<D> => ({ access: 'signedIn', schema, run: run as (i: unknown, c: ActionContext<D>) => Promise<unknown> });

/** An action callable without a token (sign-in, sign-up, password reset, login status). */
export const publicAction = <S extends z.ZodType, D>(
  schema: S,
  run: (input: z.output<S>, ctx: PublicActionContext<D>) => Promise<unknown>,
): ActionDef<D> => ({ access: 'public', schema, run: run as (i: unknown, c: PublicActionContext<D>) => Promise<unknown> });

/** zod issues as the client sees them: the schema's own message (the spec's, where it has one). */
export const validationMessages = (error: z.ZodError): string | string[] => {
  const messages = [...new Set(error.issues.map((i) => i.message))];
  return messages.length === 1 ? (messages[0] as string) : messages;
};

const bearerOf = (event: APIGatewayProxyEventV2): string | undefined => {
  const header = event.headers?.authorization;
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1];
};

const resolveCaller = async (
  event: APIGatewayProxyEventV2,
  auth: EndpointAuth,
  verifier: TokenVerifier | undefined,
): Promise<Caller | undefined> => {
  const claims = (event as APIGatewayProxyEventV2WithJWTAuthorizer).requestContext?.authorizer?.jwt?.claims;
  if (claims && auth === 'jwt') return callerFromClaims(claims);
  if (auth !== 'public' || !verifier) return undefined;
  const token = bearerOf(event);
  if (!token) return undefined;
  try {
    return callerFromClaims(await verifier.verify(token));
  } catch {
    return undefined;
  }
};

export interface EndpointOptions<D> {
  readonly auth: EndpointAuth;
  readonly actions: Readonly<Record<string, ActionDef<D>>>;
  readonly deps: D;
  readonly log: Logger;
  /** Needed when auth is 'public': the Lambda verifies the bearer itself. */
  readonly verifier?: TokenVerifier;
}

/**
 * Dispatch on the form field `type` (spec §7). Order matters: no valid token is a 401 before
 * anything else (as API Gateway's authorizer answers before the Lambda runs), then an unknown
 * type is a 422 naming it, then the action's schema, then the action.
 */
export const dispatch = <D>(options: EndpointOptions<D>) =>
  async (event: APIGatewayProxyEventV2): Promise<unknown> => {
    // No body at all is an empty form; a body the parsers could not read stays a string.
    const body: unknown = event.body === undefined || event.body === '' ? {} : event.body;
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    const type = fields?.type;
    const def = typeof type === 'string' && Object.hasOwn(options.actions, type) ? options.actions[type] : undefined;
    const caller = await resolveCaller(event, options.auth, options.verifier);
    if (!caller && def?.access !== 'public') throw new UnauthorizedError();
    if (!fields) throw new ValidationError('Send the fields as application/x-www-form-urlencoded or application/json.');
    if (!def) throw new ValidationError(`Unknown type: ${typeof type === 'string' ? type : '(none)'}`);

    const parsed = def.schema.safeParse(fields);
    if (!parsed.success) throw new ValidationError(validationMessages(parsed.error));
    const log = options.log.child({ type, user: caller?.userId });
    if (def.access === 'public') return def.run(parsed.data, { caller, deps: options.deps, log });
    return def.run(parsed.data, { caller: caller as Caller, deps: options.deps, log });
  };
