import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';
import { organizationRoleSchema } from '../../../shared/entities/organization';
import { farmsKeys as k } from './keys';
import { conditional, queryAll } from './query';
import { isLive, nodeOf, organizationNodes, type NodeChange } from './organization-nodes';
import type { MemberChange, OrganizationRepository } from '../../ports/organizations';

/**
 * Organizations with conditional single-item writes only (no transactions: dynalite has none, and
 * each change here needs at most one conditional node write). The order of the writes is the
 * design: ports/organizations.ts and docs/decisions/046.
 */
export const dynamoOrganizationRepository = (doc: DynamoDBDocumentClient, table: string): OrganizationRepository => {
  const { readNode, subNodes, roleKey, getRole, putRoleItem, deleteItem, createOrganization, adminsOf, changeNode, touch, contentBlocks, finishDeletion } = organizationNodes(doc, table);

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
