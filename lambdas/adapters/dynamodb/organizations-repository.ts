import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';
import { organizationRoleSchema, organizationSchema, type Organization, type OrganizationRole } from '../../../shared/entities/organization';
import { farmsKeys as k } from './keys';
import { conditional, queryAll, type Item } from './query';
import type { MemberChange, OrganizationRepository } from '../../ports/organizations';

/** The node's own bookkeeping, never part of the Organization it answers. */
const INTERNAL = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'kind', 'version', 'admins', 'deleting'];
const nodeOf = (item: Item): Organization => organizationSchema.parse(Object.fromEntries(Object.entries(item).filter(([key]) => !INTERNAL.includes(key))));
const isLive = (item: Item | undefined): item is Item => item !== undefined && item.deleting !== true;

/** How often a node change is tried again after another change won the node's version, with a growing random pause. */
const NODE_RETRIES = 12;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 10 * 2 ** attempt)));

type Admins = Record<string, true>;
/** What a node change does: write the node (and answer `result`), or stop with `result` and write nothing. */
type NodeChange<R> = { readonly write: Item; readonly result: R } | { readonly stop: R };

/**
 * Organizations with conditional single-item writes only (no transactions: dynalite has none, and
 * each change here needs at most one conditional node write). The order of the writes is the
 * design: ports/organizations.ts and docs/decisions/046.
 */
export const dynamoOrganizationRepository = (doc: DynamoDBDocumentClient, table: string): OrganizationRepository => {
  const partition = (orgId: string, prefix: string) =>
    queryAll(doc, table, { KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)', ExpressionAttributeValues: { ':p': k.organizationPartition(orgId), ':s': prefix } });
  const readNode = async (orgId: string): Promise<Item | undefined> =>
    (await doc.send(new GetCommand({ TableName: table, Key: k.organization(orgId), ConsistentRead: true }))).Item as Item | undefined;
  const subNodes = async (parentId: string): Promise<Item[]> => {
    const index = k.subOrganizationIndex(parentId, '');
    return queryAll(doc, table, {
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :s)',
      ExpressionAttributeValues: { ':p': index.gsi1pk, ':s': k.subOrganizationPrefix },
    });
  };
  const roleKey = (orgId: string, userId: string) => {
    const key = k.organizationRole(orgId, userId);
    return { pk: key.pk, sk: key.sk };
  };
  const getRole = async (orgId: string, userId: string): Promise<OrganizationRole | undefined> => {
    const { Item } = await doc.send(new GetCommand({ TableName: table, Key: roleKey(orgId, userId), ConsistentRead: true }));
    return Item ? organizationRoleSchema.parse(Item.role) : undefined;
  };
  const putRoleItem = (orgId: string, userId: string, role: OrganizationRole, onlyIfNew = false) =>
    conditional(() =>
      doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...k.organizationRole(orgId, userId), kind: 'ORG_ROLE', org_id: orgId, user_id: userId, role },
          ...(onlyIfNew ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
        }),
      ),
    );
  const deleteItem = (key: { pk: string; sk: string }) => doc.send(new DeleteCommand({ TableName: table, Key: key }));
  const createOrganization = (org: Organization) =>
    conditional(() =>
      doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...k.organization(org._id), ...(org.parent_id ? k.subOrganizationIndex(org.parent_id, org._id) : {}), kind: 'ORG', ...org, version: 1, admins: {} },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );

  /** The node's Admins: stored on it, or (a node from before they were) read from its roles. */
  const adminsOf = async (orgId: string, node: Item): Promise<Admins> => {
    if (node.admins && typeof node.admins === 'object') return { ...(node.admins as Admins) };
    const roles = await partition(orgId, 'USER#');
    return Object.fromEntries(roles.filter((r) => r.role === 'Admin').map((r) => [String(r.user_id), true as const]));
  };

  /**
   * Reads the live node, lets `change` decide, and puts what it wrote on condition that the node
   * is still at the version read and not being deleted; another change in between makes it read
   * and decide again. 'gone' when there is no live node.
   */
  const changeNode = async <R>(orgId: string, change: (node: Item) => Promise<NodeChange<R>> | NodeChange<R>): Promise<R | 'gone'> => {
    for (let attempt = 0; attempt < NODE_RETRIES; attempt += 1) {
      if (attempt > 0) await pause(attempt);
      const node = await readNode(orgId);
      if (!isLive(node)) return 'gone';
      const decided = await change(node);
      if ('stop' in decided) return decided.stop;
      const version = typeof node.version === 'number' ? node.version : 0;
      const landed = await conditional(() =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...decided.write, ...k.organization(orgId), version: version + 1 },
            ConditionExpression: `${version === 0 ? 'attribute_exists(pk) AND attribute_not_exists(version)' : 'version = :v'} AND attribute_not_exists(deleting)`,
            ...(version === 0 ? {} : { ExpressionAttributeValues: { ':v': version } }),
          }),
        ),
      );
      if (landed) return decided.result;
    }
    throw new Error(`organization ${orgId} changed ${NODE_RETRIES} times while one change was being made`);
  };
  /** The node's version moves on: an addition under it is known to have been there before any later deletion began. */
  const touch = (orgId: string) => changeNode(orgId, (node) => ({ write: node, result: 'done' as const }));

  /** Sub-organizations and farms that hold a deletion back (a sub-organization whose own deletion stopped half-way is finished first). */
  const contentBlocks = async (orgId: string): Promise<boolean> => {
    const subs = await subNodes(orgId);
    for (const sub of subs.filter((s) => s.deleting === true)) await finishDeletion(String(sub._id));
    return subs.some(isLive) || (await partition(orgId, 'FARM#')).length > 0;
  };
  /** The second half of a deletion (the node is already marked): its roles, then the node. */
  const finishDeletion = async (orgId: string): Promise<void> => {
    for (const r of await partition(orgId, 'USER#')) await deleteItem({ pk: String(r.pk), sk: String(r.sk) });
    await conditional(() => doc.send(new DeleteCommand({ TableName: table, Key: k.organization(orgId), ConditionExpression: 'deleting = :t', ExpressionAttributeValues: { ':t': true } })));
  };

  return {
    async getOrganization(orgId) {
      const item = await readNode(orgId);
      return isLive(item) ? nodeOf(item) : undefined;
    },
    async getContent(orgId) {
      const items = await queryAll(doc, table, { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': k.organizationPartition(orgId) } });
      return {
        farmIds: items.filter((i) => i.kind === 'ORG_FARM').map((i) => String(i.farm_id)),
        roles: items.filter((i) => i.kind === 'ORG_ROLE').map((i) => ({ user_id: String(i.user_id), role: organizationRoleSchema.parse(i.role) })),
      };
    },
    async listSubOrganizations(parentId) {
      return (await subNodes(parentId)).filter(isLive).map(nodeOf).sort((a, b) => a.name.localeCompare(b.name));
    },
    getRole,
    async listOrganizationIdsOfUser(userId) {
      const items = await queryAll(doc, table, {
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :s)',
        ExpressionAttributeValues: { ':p': `USER#${userId}`, ':s': 'ORG#' },
      });
      return items.filter((i) => i.kind === 'ORG_ROLE').map((i) => String(i.org_id));
    },
    async listOrganizationIdsOfFarm(farmId) {
      const index = k.organizationFarm('', farmId);
      const items = await queryAll(doc, table, {
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :s)',
        ExpressionAttributeValues: { ':p': index.gsi1pk, ':s': 'ORG#' },
      });
      return items.filter((i) => i.kind === 'ORG_FARM').map((i) => String(i.org_id));
    },
    createOrganization,
    async addSubOrganization(org) {
      const parentId = org.parent_id;
      if (!parentId) throw new Error('a sub-organization needs its parent');
      if (!(await createOrganization(org))) throw new Error(`organization id ${org._id} taken`);
      if ((await touch(parentId)) === 'done') return true;
      // The parent is being deleted: its deletion may not have seen this one, so it is taken back.
      await deleteItem(k.organization(org._id));
      return false;
    },
    async editOrganization(org) {
      const { _id: _i, parent_id: _p, ...own } = org;
      return (await changeNode(org._id, (node) => ({ write: { ...node, ...own }, result: true }))) === true;
    },
    async deleteOrganization(orgId) {
      if (!isLive(await readNode(orgId))) return 'gone';
      if (await contentBlocks(orgId)) return 'notEmpty';
      // The mark is the deletion: from here the node is gone to readers, and additions under it are taken back.
      const marked = await changeNode(orgId, (node) => ({ write: { ...node, deleting: true }, result: node }));
      if (marked === 'gone') return 'gone';
      // An addition that bumped the version before the mark is visible now.
      if (await contentBlocks(orgId)) {
        const version = (typeof marked.version === 'number' ? marked.version : 0) + 1;
        await conditional(() =>
          doc.send(
            new PutCommand({
              TableName: table,
              Item: { ...marked, ...k.organization(orgId), version: version + 1 },
              ConditionExpression: 'version = :v AND deleting = :t',
              ExpressionAttributeValues: { ':v': version, ':t': true },
            }),
          ),
        );
        return 'notEmpty';
      }
      await finishDeletion(orgId);
      return 'done';
    },
    async addMember(orgId, userId) {
      // A role already there is kept (an Admin is not demoted by being added again); one unlinked
      // between the refused put and the read is put again.
      for (let attempt = 0; !(await putRoleItem(orgId, userId, 'User', true)); attempt += 1) {
        const role = await getRole(orgId, userId);
        if (role) return { role };
        if (attempt >= 2) throw new Error(`the role of ${userId} in ${orgId} keeps changing`);
      }
      if ((await touch(orgId)) === 'done') return { role: 'User' };
      await deleteItem(roleKey(orgId, userId));
      return 'gone';
    },
    async setRole(orgId, userId, role): Promise<MemberChange> {
      if (role === 'Admin') {
        await putRoleItem(orgId, userId, 'Admin');
        const counted = await changeNode(orgId, async (node) => ({ write: { ...node, admins: { ...(await adminsOf(orgId, node)), [userId]: true } }, result: 'done' as const }));
        if (counted === 'gone') await deleteItem(roleKey(orgId, userId));
        return counted;
      }
      const uncounted = await changeNode(orgId, async (node): Promise<NodeChange<MemberChange>> => {
        const { [userId]: was, ...rest } = await adminsOf(orgId, node);
        if ((was || (await getRole(orgId, userId)) === 'Admin') && Object.keys(rest).length === 0) return { stop: 'lastAdmin' };
        return { write: { ...node, admins: rest }, result: 'done' };
      });
      if (uncounted !== 'done') return uncounted;
      await putRoleItem(orgId, userId, 'User');
      return 'done';
    },
    async removeMember(orgId, userId): Promise<MemberChange> {
      const role = await getRole(orgId, userId);
      if (!role) return isLive(await readNode(orgId)) ? 'notMember' : 'gone';
      // The count first: two Admins unlinking each other cannot both see the other one left.
      const uncounted = await changeNode(orgId, async (node): Promise<NodeChange<MemberChange>> => {
        const { [userId]: was, ...rest } = await adminsOf(orgId, node);
        if ((was || role === 'Admin') && Object.keys(rest).length === 0) return { stop: 'lastAdmin' };
        return { write: { ...node, admins: rest }, result: 'done' };
      });
      if (uncounted !== 'done') return uncounted;
      await deleteItem(roleKey(orgId, userId));
      return 'done';
    },
    async linkFarm(orgId, farmId) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.organizationFarm(orgId, farmId), kind: 'ORG_FARM', org_id: orgId, farm_id: farmId } }));
      if ((await touch(orgId)) === 'done') return true;
      const link = k.organizationFarm(orgId, farmId);
      await deleteItem({ pk: link.pk, sk: link.sk });
      return false;
    },
  };
};
