import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { notificationStore } from './alerts/alerts';
import { deliveryQueue } from './alerts/deliveries';
import { alertEngineStore } from './alerts/engine';
import { escalationQueue } from './alerts/escalations';
import { smsAllowance } from './alerts/sms-allowance';
import type { AlertsRepository } from '../../ports/alerts';

/** The Alerts table's stores in one (the wide port the wiring hands out): one store per key family (lambdas/adapters/dynamodb/alerts/). */
export const dynamoAlertsRepository = (doc: DynamoDBDocumentClient, table: string): AlertsRepository => ({
  ...alertEngineStore(doc, table),
  ...notificationStore(doc, table),
  ...deliveryQueue(doc, table),
  ...escalationQueue(doc, table),
  ...smsAllowance(doc, table),
});
