import { createDocumentClient } from '../../../lambdas/adapters/dynamodb/client';
import { dynamoEquipmentRepository } from '../../../lambdas/adapters/dynamodb/equipment-repository';
import { dynamoFarmRepository } from '../../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoInstallRepository } from '../../../lambdas/adapters/dynamodb/installs-repository';
import { dynamoMilkingWindowsRepository } from '../../../lambdas/adapters/dynamodb/milking-windows-repository';
import { dynamoOrganizationRepository } from '../../../lambdas/adapters/dynamodb/organizations-repository';
import { unitAttributes, unitThingName } from '../../../shared/entities/install';
import { DEMO_FARMS, DEMO_UNIT_IMEIS, FARM_FLAG_ACCOUNTS } from '../../seed/demo-data';
import { seedDemo, seedDemoEquipment, seedDemoMilkingWindows, seedDemoOrganization, seedDemoUnits } from '../../seed/seed';
import { enrolDemoTotp } from '../../seed/totp';
import type { CognitoStandIn } from '../../stand-ins/cognito';
import type { IotControlPlane } from '../../stand-ins/iot-control';
import type { LocalConfig } from '../config';
import { setFunctionEnv } from '../function-env';

/**
 * The demo: its accounts (operators with an authenticator app), farms, organisation, equipment,
 * milking windows and units, each unit a thing of the IoT registry as a deployed fleet's are.
 */
export const seedDemoData = async (config: LocalConfig, farmsTable: string, cognito: CognitoStandIn, iot: IotControlPlane) => {
  const farms = dynamoFarmRepository(createDocumentClient(), farmsTable);
  const demoIds = await seedDemo(farms, cognito.client, cognito.userPoolId);
  const totpSecrets = await enrolDemoTotp(cognito.client, cognito.userPoolId, cognito.clientId, cognito.totpSecretOf);
  // operator §6's fixed list of user ids that may set the farm flags: in AWS CDK context
  // farmFlagUserIds; here the demo accounts of FARM_FLAG_ACCOUNTS, whose ids the seed knows.
  setFunctionEnv({ FARM_FLAG_USER_IDS: FARM_FLAG_ACCOUNTS.map((email) => demoIds[email]).filter(Boolean).join(',') });
  await seedDemoOrganization(dynamoOrganizationRepository(createDocumentClient(), farmsTable), demoIds);
  await seedDemoEquipment(dynamoEquipmentRepository(createDocumentClient(), farmsTable));
  await seedDemoMilkingWindows(dynamoMilkingWindowsRepository(createDocumentClient(), farmsTable));
  await seedDemoUnits(dynamoInstallRepository(createDocumentClient(), farmsTable));
  for (const f of DEMO_FARMS) {
    const imei = DEMO_UNIT_IMEIS[f._id];
    if (imei) iot.ensureThing(unitThingName(imei), unitAttributes(imei, f.fonterra_id, f.package, false));
  }
  return { farms, totpSecrets };
};
