import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoOrganizationRepository } from '../../lambdas/adapters/dynamodb/organizations-repository';
import { DEMO_ORGANIZATION } from '../../local/seed/demo-data';
import { ORGANIZATION_MESSAGES as MSG } from '../../shared/entities/organization';
import { startTestStack } from '../support/local-stack';

/*
 * Organization changes racing each other through the local stack (the API gateway stand-in, the
 * real handlers, dynalite): a deletion against an addition under the same organization, and two
 * Admins unlinking each other. Each round starts both requests together, each after a random
 * few milliseconds, so the rounds fall on every interleaving; every round must end with
 * nothing hanging under a deleted organization and an Admin left in a living one.
 */
const PATH = '/api/farmer/organization';
const PARENT = DEMO_ORGANIZATION.organization._id;
const ROUNDS = 24;

let stack: Awaited<ReturnType<typeof startTestStack>>;
const t = { farmer: '', member: '', stranger: '' };
const ids = { member: '', stranger: '' };
const repository = () => dynamoOrganizationRepository(createDocumentClient(), stack.facts.dynamodb.farmsTable);
const call = (fields: Record<string, string>, token: string) => stack.post(PATH, fields, token);
const after = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A few milliseconds or none: the windows between a read and a write are that wide. */
const jitter = () => after(Math.floor(Math.random() * 6));
/** `count` fresh sub-organizations, added one after another (the races are between what follows, not these). */
const subOrganizations = async (prefix: string, count = ROUNDS): Promise<string[]> => {
  const out: string[] = [];
  for (let round = 0; round < count; round += 1) out.push(await subOrganization(`${prefix} ${round}`));
  return out;
};

/** A fresh empty sub-organization of the demo group, added through the API by its Admin. */
const subOrganization = async (name: string): Promise<string> => {
  const res = await call({ type: 'ORGANIZATION_ADD', organization_id: PARENT, name, tag: 'Regional', contact: '', address: '', email: '', phone: '' }, t.farmer);
  expect(res.status).toBe(200);
  return (res.body as { _id: string })._id;
};
/** Everything stored under an organization's partition: its node, farm links and roles. */
const partitionOf = async (orgId: string) => {
  const page = await createDocumentClient().send(new QueryCommand({ TableName: stack.facts.dynamodb.farmsTable, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': `ORG#${orgId}` }, ConsistentRead: true }));
  return page.Items ?? [];
};

beforeAll(async () => {
  stack = await startTestStack(undefined, undefined, { dairySync: false, watchman: false });
  t.farmer = await stack.signIn('farmer@vatman.local');
  t.member = await stack.signIn('westfarmer@vatman.local');
  t.stranger = await stack.signIn('newfarmer@vatman.local');
  for (const who of ['member', 'stranger'] as const) {
    ids[who] = ((await stack.post('/api/user', { type: 'USER_ONE_GET_BY_TOKEN' }, t[who])).body as { user: { _id: string } }).user._id;
  }
}, 180_000);
afterAll(async () => stack?.stop());

describe('organization races', () => {
  it('ORGANIZATION_DELETE racing ORGANIZATION_USER_ADD: never an orphan role; the add either counts or is refused', async () => {
    const subs = await subOrganizations('Race');
    const outcomes = await Promise.all(
      subs.map(async (sub) => {
        const [deleted, added] = await Promise.all([
          jitter().then(() => call({ type: 'ORGANIZATION_DELETE', _id: sub }, t.farmer)),
          jitter().then(() => call({ type: 'ORGANIZATION_USER_ADD', organization_id: sub, email: 'westfarmer@vatman.local' }, t.farmer)),
        ]);
        const left = await partitionOf(sub);
        return { sub, deleted: deleted.status, added: added.status, left: left.map((i) => String(i.sk)) };
      }),
    );
    for (const o of outcomes) {
      // The deletion always wins here (a role does not hold a deletion back) …
      expect(o.deleted).toBe(200);
      // … and nothing stays in the partition of the deleted organization: no node, no role.
      expect(o).toMatchObject({ left: [] });
      // The add either landed before the deletion (its role removed with the organization) or was refused as an unknown organization.
      expect([200, 403]).toContain(o.added);
      expect((await repository().listOrganizationIdsOfUser(ids.member)).includes(o.sub)).toBe(false);
    }
  }, 180_000);

  it('ORGANIZATION_DELETE racing ORGANIZATION_ADD under it: no sub-organization is left without its parent', async () => {
    const subs = await subOrganizations('Parent race');
    const outcomes = await Promise.all(
      subs.map(async (sub, round) => {
        const [deleted, added] = await Promise.all([
          jitter().then(() => call({ type: 'ORGANIZATION_DELETE', _id: sub }, t.farmer)),
          jitter().then(() => call({ type: 'ORGANIZATION_ADD', organization_id: sub, name: `Child ${round}`, tag: 'Branch', contact: '', address: '', email: '', phone: '' }, t.farmer)),
        ]);
        const parentLeft = (await partitionOf(sub)).some((i) => i.sk === 'ORG');
        const children = await repository().listSubOrganizations(sub);
        const child = added.status === 200 ? (added.body as { _id: string })._id : undefined;
        const childLeft = child ? (await partitionOf(child)).some((i) => i.sk === 'ORG') : false;
        return { deleted: deleted.status, added: added.status, parentLeft, children: children.length, childLeft };
      }),
    );
    for (const o of outcomes) {
      // Either the deletion won (the child refused or taken back), or it saw the child and was
      // refused; then the child stands, unless the add met the deletion's mark and was taken back too.
      if (o.deleted === 200) expect(o).toMatchObject({ parentLeft: false, childLeft: false });
      else if (o.added === 200) expect(o).toMatchObject({ deleted: 422, parentLeft: true, children: 1, childLeft: true });
      else expect(o).toMatchObject({ deleted: 422, added: 403, parentLeft: true, children: 0, childLeft: false });
    }
  }, 180_000);

  it('two Admins unlinking each other at once: one is unlinked, the other is refused as the last Admin', async () => {
    const subs = await subOrganizations('Admins');
    for (const sub of subs) for (const who of ['member', 'stranger'] as const) expect(await repository().setRole(sub, ids[who], 'Admin')).toBe('done');
    const outcomes = await Promise.all(
      subs.map(async (sub) => {
        const answers = await Promise.all([
          jitter().then(() => call({ type: 'ORGANIZATION_USER_UNLINK', organization_id: sub, user_id: ids.stranger }, t.member)),
          jitter().then(() => call({ type: 'ORGANIZATION_USER_UNLINK', organization_id: sub, user_id: ids.member }, t.stranger)),
        ]);
        const { roles } = await repository().getContent(sub);
        return { answers, admins: roles.filter((r) => r.role === 'Admin').length };
      }),
    );
    for (const o of outcomes) {
      expect(o.admins).toBe(1);
      // The loser is refused with the rule's words, or (its own role gone first) as no longer an Admin there.
      const refused = o.answers.filter((a) => a.status !== 200);
      expect(refused).toHaveLength(1);
      expect([{ status: 422, body: { message: MSG.lastAdmin } }, { status: 403, body: expect.anything() as unknown }]).toContainEqual(refused[0]);
    }
  }, 180_000);
});
