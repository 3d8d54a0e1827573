import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DeleteCertificateCommand,
  DeleteThingCommand,
  DescribeEndpointCommand,
  DetachPolicyCommand,
  DetachThingPrincipalCommand,
  IoTClient,
  ListThingPrincipalsCommand,
  ResourceNotFoundException,
  UpdateCertificateCommand,
  UpdateThingCommand,
} from '@aws-sdk/client-iot';
import { optionalEnv, requireEnv } from '../../lib/env';
import type { UnitProvisioning } from '../../ports/iot';
import { instrumented } from '../aws-client';

/** Undo steps run again after a crash: what is already gone is done. */
const unlessGone = async (call: () => Promise<unknown>): Promise<void> => {
  try {
    await call();
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
};

export const iotProvisioning = (client: IoTClient, policyName: string): UnitProvisioning => ({
  policyName,
  async createThing(thingName, attributes) {
    await client.send(new CreateThingCommand({ thingName, attributePayload: { attributes } }));
  },
  async updateThing(thingName, attributes) {
    await client.send(new UpdateThingCommand({ thingName, attributePayload: { attributes, merge: true } }));
  },
  async deleteThing(thingName) {
    await unlessGone(() => client.send(new DeleteThingCommand({ thingName })));
  },
  async createCertificate() {
    const out = await client.send(new CreateKeysAndCertificateCommand({ setAsActive: false }));
    if (!out.certificateId || !out.certificateArn || !out.certificatePem || !out.keyPair?.PrivateKey) throw new Error('CreateKeysAndCertificate answered without a certificate');
    return { certificateId: out.certificateId, certificateArn: out.certificateArn, certificatePem: out.certificatePem, privateKey: out.keyPair.PrivateKey };
  },
  async deleteCertificate(certificateId) {
    await unlessGone(async () => {
      await client.send(new UpdateCertificateCommand({ certificateId, newStatus: 'INACTIVE' }));
      await client.send(new DeleteCertificateCommand({ certificateId, forceDelete: true }));
    });
  },
  async activateCertificate(certificateId) {
    await client.send(new UpdateCertificateCommand({ certificateId, newStatus: 'ACTIVE' }));
  },
  async deactivateCertificate(certificateId) {
    await unlessGone(() => client.send(new UpdateCertificateCommand({ certificateId, newStatus: 'INACTIVE' })));
  },
  async thingCertificates(thingName) {
    const arns: string[] = [];
    let nextToken: string | undefined;
    try {
      do {
        const out = await client.send(new ListThingPrincipalsCommand({ thingName, ...(nextToken ? { nextToken } : {}) }));
        arns.push(...(out.principals ?? []));
        nextToken = out.nextToken;
      } while (nextToken);
    } catch (err) {
      if (err instanceof ResourceNotFoundException) return [];
      throw err;
    }
    // A certificate principal's ARN ends in cert/<id>.
    return arns.filter((arn) => arn.includes(':cert/')).map((arn) => ({ arn, id: arn.slice(arn.lastIndexOf('/') + 1) }));
  },
  async attachPolicy(certificateArn) {
    await client.send(new AttachPolicyCommand({ policyName, target: certificateArn }));
  },
  async detachPolicy(certificateArn) {
    await unlessGone(() => client.send(new DetachPolicyCommand({ policyName, target: certificateArn })));
  },
  async attachThingPrincipal(thingName, principal) {
    await client.send(new AttachThingPrincipalCommand({ thingName, principal }));
  },
  async detachThingPrincipal(thingName, principal) {
    await unlessGone(() => client.send(new DetachThingPrincipalCommand({ thingName, principal })));
  },
  async dataEndpoint() {
    const out = await client.send(new DescribeEndpointCommand({ endpointType: 'iot:Data-ATS' }));
    if (!out.endpointAddress) throw new Error('DescribeEndpoint answered no address');
    return out.endpointAddress;
  },
});

/** The IoT control-plane client: IOT_ENDPOINT points it at the local stand-in; in AWS it is unset. */
export const iotClientFromEnv = (env: NodeJS.ProcessEnv = process.env): IoTClient => {
  const endpoint = optionalEnv('IOT_ENDPOINT', env);
  return instrumented(new IoTClient({ region: optionalEnv('AWS_REGION', env) ?? 'us-east-1', ...(endpoint ? { endpoint } : {}) }));
};

export const provisioningFromEnv = (env: NodeJS.ProcessEnv = process.env): UnitProvisioning => iotProvisioning(iotClientFromEnv(env), requireEnv('IOT_DEVICE_POLICY', env));
