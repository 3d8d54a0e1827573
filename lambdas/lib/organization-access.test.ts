import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { access, contract } from '../../shared/api/contract';
import type { Organization, OrganizationRole } from '../../shared/entities/organization';
import { TOTP_CLAIM } from '../../shared/roles';
import { dispatch, serve } from './dispatch';
import { http } from './http';
import { createLogger } from './logger';
import type { Ports } from '../ports/action-ports';

/**
 * The organization access rules (farmer §6) in dispatch, over a fake tree:
 * top › mid › leaf, and a broken pair a ↔ b whose parents point at each other.
 * u-top is User at top and Admin at mid; u-leaf is Admin at leaf only.
 */
const node = (id: string, parent: string | null): Organization => ({ _id: id, name: id, tag: 'Group', contact: '', address: '', email: '', phone: '', package: 'Non-independent accounting', parent_id: parent });
const TREE: Record<string, Organization> = { top: node('top', null), mid: node('mid', 'top'), leaf: node('leaf', 'mid'), a: node('a', 'b'), b: node('b', 'a') };
const ROLES: Record<string, OrganizationRole> = { 'top|u-top': 'User', 'mid|u-top': 'Admin', 'leaf|u-leaf': 'Admin', 'a|u-a': 'User' };
const ports = {
  organizations: {
    getOrganization: async (id: string) => TREE[id],
    getRole: async (org: string, user: string) => ROLES[`${org}|${user}`],
  },
} as unknown as Ports;

const PATH = '/api/farmer/organization';
const see = contract({ path: PATH, type: 'SEE', input: z.object({ type: z.literal('SEE'), organization_id: z.string().default('') }), answer: z.unknown(), access: access.orgMemberOrNone() });
const change = contract({ path: PATH, type: 'CHANGE', input: z.object({ type: z.literal('CHANGE'), _id: z.string() }), answer: z.unknown(), access: access.orgAdmin('_id') });
const log = createLogger({}, 'error', () => undefined);
const endpoint = http(
  dispatch({
    auth: 'jwt',
    log,
    ports,
    actions: [
      serve(see, [], async (_i, { org }) => (org ? { id: org.organization._id, role: org.role, parents: org.parents.map((p) => p._id) } : 'none')),
      serve(change, [], async (_i, { org }) => ({ id: org.organization._id, role: org.role })),
    ],
  }),
  log,
);

const as = async (user: string, body: string, groups = '') => {
  const event = {
    version: '2.0',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    requestContext: { authorizer: { jwt: { claims: { sub: user, 'cognito:groups': groups, [TOTP_CLAIM]: '1700000000', auth_time: '1700000000' }, scopes: null } } },
    body,
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const res = (await endpoint(event, {} as Context)) as APIGatewayProxyStructuredResultV2;
  return { status: res.statusCode, body: JSON.parse(res.body ?? 'null') as unknown };
};

describe('orgMember and orgAdmin (farmer §6)', () => {
  it('hands the action the organization, the caller’s role and the parents (top first)', async () => {
    expect(await as('u-top', 'type=SEE&organization_id=leaf')).toEqual({ status: 200, body: { id: 'leaf', role: 'Admin', parents: ['top', 'mid'] } });
  });

  it('counts a role in the organization and above it, the strongest winning', async () => {
    expect((await as('u-top', 'type=SEE&organization_id=top')).body).toMatchObject({ role: 'User' });
    expect((await as('u-top', 'type=SEE&organization_id=mid')).body).toMatchObject({ role: 'Admin' });
    expect((await as('u-top', 'type=CHANGE&_id=leaf')).status).toBe(200);
    expect((await as('u-top', 'type=CHANGE&_id=top')).status).toBe(403);
  });

  it('never reaches up: an Admin of a leaf does not see its parents', async () => {
    expect((await as('u-leaf', 'type=CHANGE&_id=leaf')).status).toBe(200);
    expect((await as('u-leaf', 'type=SEE&organization_id=mid')).status).toBe(403);
  });

  it('answers 403 for a stranger and an unknown id alike; the Admin group reaches every organization as Admin', async () => {
    expect(await as('u-nobody', 'type=SEE&organization_id=top')).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect(await as('u-top', 'type=SEE&organization_id=ghost')).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect((await as('u-nobody', 'type=CHANGE&_id=leaf', '[Admin]')).body).toEqual({ id: 'leaf', role: 'Admin' });
    expect((await as('u-nobody', 'type=CHANGE&_id=leaf', '[Installer]')).status).toBe(403);
  });

  it('lets an empty optional field through with no organization, but not an empty required one', async () => {
    expect(await as('u-nobody', 'type=SEE')).toEqual({ status: 200, body: 'none' });
    expect((await as('u-top', 'type=CHANGE&_id=')).status).toBe(403);
  });

  it('stops on a parent cycle instead of looping', async () => {
    expect(await as('u-a', 'type=SEE&organization_id=b')).toEqual({ status: 200, body: { id: 'b', role: 'User', parents: ['a'] } });
  });
});
