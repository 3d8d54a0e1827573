import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';
import { organizationRoleSchema, organizationSchema, type Organization, type OrganizationRole } from '../../../shared/entities/organization';
import { farmsKeys as k } from './keys';
import { conditional, queryAll, type Item } from './query';

/** The node's own bookkeeping, never part of the Organization it answers. */
const INTERNAL = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'kind', 'version', 'admins', 'deleting'];
export const nodeOf = (item: Item): Organization => organizationSchema.parse(Object.fromEntries(Object.entries(item).filter(([key]) => !INTERNAL.includes(key))));
export const isLive = (item: Item | undefined): item is Item => item !== undefined && item.deleting !== true;

/** How often a node change is tried again after another change won the node's version, with a growing random pause. */
const NODE_RETRIES = 12;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 10 * 2 ** attempt)));

type Admins = Record<string, true>;
/** What a node change does: write the node (and answer `result`), or stop with `result` and write nothing. */
export type NodeChange<R> = { readonly write: Item; readonly result: R } | { readonly stop: R };

/**
 * The organization items the repository (organizations-repository.ts) is made of: the node with its
 * versioned conditional change, its roles, its sub-organizations, and the second half of a deletion.
 */
export const organizationNodes = (doc: DynamoDBDocumentClient, table: string) => {
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

  return { partition, readNode, subNodes, roleKey, getRole, putRoleItem, deleteItem, createOrganization, adminsOf, changeNode, touch, contentBlocks, finishDeletion };
};
