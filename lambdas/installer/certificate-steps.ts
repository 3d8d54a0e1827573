import { unitThingName } from '../../shared/entities/install';
import type { Step, WorkflowDeps } from './run-engine';

/**
 * The certificate steps both workflows share: a new key pair and certificate, inactive (recorded on
 * the run at once, so an undo finds it), the device policy attached to it, the certificate
 * attached to the unit's thing, then activated. Undone newest first: deactivated, detached, then
 * deleted (it never reached the unit: the answer carrying its key was not given).
 */
export const certificateSteps = (deps: WorkflowDeps): Step[] => {
  const p = deps.provisioning;
  return [
    {
      name: 'CreateKeysAndCertificate',
      run: async (c, record) => {
        const cert = await p.createCertificate();
        c.privateKey = cert.privateKey;
        c.certificatePem = cert.certificatePem;
        try {
          await record({ certificate: { id: cert.certificateId, arn: cert.certificateArn } });
        } catch (err) {
          // Not recorded, so no undo would find it: it goes now.
          await p.deleteCertificate(cert.certificateId).catch((e: unknown) => deps.log.error('install workflow: unrecorded certificate not deleted', { certificate: cert.certificateId, err: e }));
          throw err;
        }
      },
      undo: async (c) => {
        if (c.run.certificate) await p.deleteCertificate(c.run.certificate.id);
        c.privateKey = undefined;
        c.certificatePem = undefined;
      },
    },
    {
      name: 'AttachPolicy',
      run: async (c) => p.attachPolicy(certificateOf(c.run).arn),
      undo: async (c) => (c.run.certificate ? p.detachPolicy(c.run.certificate.arn) : undefined),
    },
    {
      name: 'AttachThingPrincipal',
      run: async (c) => p.attachThingPrincipal(unitThingName(c.run.imei), certificateOf(c.run).arn),
      undo: async (c) => (c.run.certificate ? p.detachThingPrincipal(unitThingName(c.run.imei), c.run.certificate.arn) : undefined),
    },
    {
      name: 'activate certificate',
      run: async (c) => p.activateCertificate(certificateOf(c.run).id),
      undo: async (c) => (c.run.certificate ? p.deactivateCertificate(c.run.certificate.id) : undefined),
    },
  ];
};

const certificateOf = (run: { certificate?: { id: string; arn: string } }) => {
  if (!run.certificate) throw new Error('the run has no certificate recorded');
  return run.certificate;
};

/**
 * Revokes every certificate on the unit's thing but `keep`: deactivated (the broker refuses it),
 * detached from the thing and from the device policy; kept, inactive, as IoT's record of it.
 */
export const revokeOthers = async (deps: WorkflowDeps, imei: string, keep: string): Promise<string[]> => {
  const p = deps.provisioning;
  const thing = unitThingName(imei);
  const revoked: string[] = [];
  for (const cert of await p.thingCertificates(thing)) {
    if (cert.id === keep) continue;
    await p.deactivateCertificate(cert.id);
    await p.detachThingPrincipal(thing, cert.arn);
    await p.detachPolicy(cert.arn);
    revoked.push(cert.id);
  }
  return revoked;
};
