import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { alertsKeys as k } from '../keys';
import { conditional } from '../query';

/**
 * The fleet counters the alert stores keep beside their own writes (decision 055). They are
 * counted after the write they count has landed (a notification created, a text reserved), so a
 * redelivered reading that finds its notification written counts nothing; a crash between the two
 * writes loses one count, which an overview can bear and an alert could not.
 */

/** Farms named per type and hour: the item stays far below DynamoDB's 400 KB whatever the storm. */
const FARMS_KEPT_PER_TYPE = 50;
/** The counters of an hour outlive the overview's 24 hours by a day, then expire. */
const ALERT_HOUR_TTL_S = 2 * 86_400;
/** A month's text count is kept a year (the spend is billed monthly). */
const SMS_MONTH_TTL_S = 400 * 86_400;

export const utcHour = (at: Date): string => at.toISOString().slice(0, 13);

export const countRaised = async (doc: DynamoDBDocumentClient, table: string, farmId: string, type: number, at: Date): Promise<void> => {
  const key = k.statsAlerts(utcHour(at));
  const expires = Math.floor(at.getTime() / 1000) + ALERT_HOUR_TTL_S;
  await doc.send(
    new UpdateCommand({
      TableName: table,
      Key: key,
      UpdateExpression: 'ADD #t :one SET expires_at = :exp',
      ExpressionAttributeNames: { '#t': `t${type}` },
      ExpressionAttributeValues: { ':one': 1, ':exp': expires },
    }),
  );
  // The farm joins the type's set while the set is small (a set ignores a farm already in it).
  await conditional(() =>
    doc.send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'ADD #f :farm',
        ConditionExpression: 'attribute_not_exists(#f) OR size(#f) < :cap',
        ExpressionAttributeNames: { '#f': `f${type}` },
        ExpressionAttributeValues: { ':farm': new Set([farmId]), ':cap': FARMS_KEPT_PER_TYPE },
      }),
    ),
  );
};

export const countSms = async (doc: DynamoDBDocumentClient, table: string, month: string, change: 1 | -1): Promise<void> => {
  await doc.send(
    new UpdateCommand({
      TableName: table,
      Key: k.statsSms(month),
      UpdateExpression: 'ADD sent :n SET expires_at = if_not_exists(expires_at, :exp)',
      ExpressionAttributeValues: { ':n': change, ':exp': Math.floor(Date.now() / 1000) + SMS_MONTH_TTL_S },
    }),
  );
};
