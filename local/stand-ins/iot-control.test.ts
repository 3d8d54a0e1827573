import { DescribeThingCommand, IoTClient, ListThingsCommand, DeleteCertificateCommand } from '@aws-sdk/client-iot';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iotProvisioning } from '../../lambdas/adapters/iot/provisioning';
import { iotThingRegistry } from '../../lambdas/adapters/iot/thing-registry';
import { freePort } from '../../test/support/free-port';
import { startIotControlPlane, type IotControlPlane } from './iot-control';
import { issuedBy, localCa } from './local-ca';

/** The IoT control-plane stand-in, spoken to by the real @aws-sdk/client-iot. */
let iot: IotControlPlane;
let client: IoTClient;
const dir = mkdtempSync(join(tmpdir(), 'vatman-iot-'));
const ca = localCa(join(dir, 'ca'));

beforeAll(async () => {
  iot = await startIotControlPlane(await freePort(), dir, ca, 'localhost');
  client = new IoTClient({ endpoint: iot.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});
afterAll(() => new Promise<void>((r) => iot.server.close(() => r())));

describe('IoT control-plane stand-in', () => {
  const p = () => iotProvisioning(client, 'device-policy');

  it('creates, describes, updates, lists (by attribute, page by page) and deletes things', async () => {
    for (let n = 0; n < 3; n += 1) await p().createThing(`unit-00${n}`, { imei: `00${n}`, supply_number: n === 1 ? 'S1' : 'S0' });
    const described = await client.send(new DescribeThingCommand({ thingName: 'unit-001' }));
    expect(described).toMatchObject({ thingName: 'unit-001', attributes: { imei: '001', supply_number: 'S1' }, version: 1 });
    await p().updateThing('unit-001', { variant: 'pro' });
    expect((await client.send(new DescribeThingCommand({ thingName: 'unit-001' }))).attributes).toEqual({ imei: '001', supply_number: 'S1', variant: 'pro' });
    const s0 = await client.send(new ListThingsCommand({ attributeName: 'supply_number', attributeValue: 'S0' }));
    expect(s0.things?.map((t) => t.thingName)).toEqual(['unit-000', 'unit-002']);
    const page = await client.send(new ListThingsCommand({ maxResults: 2 }));
    expect(page.things).toHaveLength(2);
    expect(page.nextToken).toBeDefined();
    expect((await iotThingRegistry(client).listThings()).map((t) => t.thingName)).toEqual(['unit-000', 'unit-001', 'unit-002']);
    await p().deleteThing('unit-002');
    await expect(client.send(new DescribeThingCommand({ thingName: 'unit-002' }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('refuses attribute values IoT refuses (no spaces)', async () => {
    await expect(p().createThing('unit-bad', { variant: 'Vat-Man Lite' })).rejects.toMatchObject({ name: 'InvalidRequestException' });
  });

  it('issues real X.509 certificates from the local CA, attaches policy and thing, and deletes only a detached, inactive one', async () => {
    const cert = await p().createCertificate();
    const x509 = new X509Certificate(cert.certificatePem);
    expect(issuedBy(cert.certificatePem, ca.caPem)).toBe(true);
    expect(x509.ca).toBe(false);
    expect(cert.certificateArn).toBe(`arn:aws:iot:us-east-1:000000000000:cert/${cert.certificateId}`);
    await p().attachPolicy(cert.certificateArn);
    await p().attachThingPrincipal('unit-000', cert.certificateArn);
    expect(iot.thing('unit-000')?.principals).toEqual([cert.certificateArn]);
    // Made inactive (the install activates it last): the broker knows no inactive certificate.
    expect(iot.certificateByPem(cert.certificatePem)).toBeUndefined();
    await p().activateCertificate(cert.certificateId);
    expect(iot.certificateByPem(cert.certificatePem)?.policies).toEqual(['device-policy']);
    expect(iot.thingOfCertificate(cert.certificateArn)?.thingName).toBe('unit-000');
    // An active certificate cannot be deleted; one still attached to a thing cannot either.
    await expect(client.send(new DeleteCertificateCommand({ certificateId: cert.certificateId }))).rejects.toMatchObject({ name: 'CertificateStateException' });
    await expect(p().deleteCertificate(cert.certificateId)).rejects.toMatchObject({ name: 'DeleteConflictException' });
    await p().detachThingPrincipal('unit-000', cert.certificateArn);
    await p().detachPolicy(cert.certificateArn);
    await p().deleteCertificate(cert.certificateId);
    expect(iot.certificates().some((c) => c.certificateId === cert.certificateId)).toBe(false);
  });

  it('answers the data endpoint, and fails an operation once when told to (not retried by the SDK)', async () => {
    expect(await p().dataEndpoint()).toBe('localhost');
    iot.failNext('DescribeEndpoint');
    await expect(p().dataEndpoint()).rejects.toMatchObject({ name: 'InvalidRequestException' });
    expect(await p().dataEndpoint()).toBe('localhost');
  });
});
