import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';
import { organizationRoleSchema, organizationSchema, type Organization } from '../../../shared/entities/organization';
import { farmsKeys as k } from './keys';
import { conditional, queryAll } from './query';
import type { OrganizationRepository } from '../../ports/organizations';

const nodeOf = (item: Record<string, unknown>): Organization => {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, kind: _k, ...rest } = item;
  return organizationSchema.parse(rest);
};

export const dynamoOrganizationRepository = (doc: DynamoDBDocumentClient, table: string): OrganizationRepository => {
  const partition = (orgId: string, prefix: string) =>
    queryAll(doc, table, { KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)', ExpressionAttributeValues: { ':p': k.organizationPartition(orgId), ':s': prefix } });
  return {
    async getOrganization(orgId) {
      const { Item } = await doc.send(new GetCommand({ TableName: table, Key: k.organization(orgId) }));
      return Item ? nodeOf(Item) : undefined;
    },
    async getContent(orgId) {
      const items = await queryAll(doc, table, { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': k.organizationPartition(orgId) } });
      return {
        farmIds: items.filter((i) => i.kind === 'ORG_FARM').map((i) => String(i.farm_id)),
        roles: items.filter((i) => i.kind === 'ORG_ROLE').map((i) => ({ user_id: String(i.user_id), role: organizationRoleSchema.parse(i.role) })),
      };
    },
    async listSubOrganizations(parentId) {
      const index = k.subOrganizationIndex(parentId, '');
      const items = await queryAll(doc, table, {
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :s)',
        ExpressionAttributeValues: { ':p': index.gsi1pk, ':s': k.subOrganizationPrefix },
      });
      return items.map(nodeOf).sort((a, b) => a.name.localeCompare(b.name));
    },
    async getRole(orgId, userId) {
      const { Item } = await doc.send(new GetCommand({ TableName: table, Key: { pk: k.organizationRole(orgId, userId).pk, sk: k.organizationRole(orgId, userId).sk } }));
      return Item ? organizationRoleSchema.parse(Item.role) : undefined;
    },
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
    async putOrganization(org, options) {
      const condition = options?.onlyIfNew ? 'attribute_not_exists(pk)' : options?.onlyIfExists ? 'attribute_exists(pk)' : undefined;
      // Without a condition the put cannot fail one: false only ever answers onlyIfNew or onlyIfExists.
      return conditional(() =>
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...k.organization(org._id), ...(org.parent_id ? k.subOrganizationIndex(org.parent_id, org._id) : {}), kind: 'ORG', ...org },
            ...(condition ? { ConditionExpression: condition } : {}),
          }),
        ),
      );
    },
    async deleteOrganization(orgId) {
      const roles = await partition(orgId, 'USER#');
      for (const r of roles) await doc.send(new DeleteCommand({ TableName: table, Key: { pk: String(r.pk), sk: String(r.sk) } }));
      await doc.send(new DeleteCommand({ TableName: table, Key: k.organization(orgId) }));
    },
    async putRole(orgId, userId, role) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.organizationRole(orgId, userId), kind: 'ORG_ROLE', org_id: orgId, user_id: userId, role } }));
    },
    async deleteRole(orgId, userId) {
      const key = k.organizationRole(orgId, userId);
      await doc.send(new DeleteCommand({ TableName: table, Key: { pk: key.pk, sk: key.sk } }));
    },
    async linkFarm(orgId, farmId) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.organizationFarm(orgId, farmId), kind: 'ORG_FARM', org_id: orgId, farm_id: farmId } }));
    },
  };
};
