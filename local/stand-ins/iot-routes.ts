import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { LocalCa } from './local-ca';
import { ARN, checkAttributes, IotError, registryLookups, type Registry, type Route, type StoredCertificate, type StoredThing } from './iot-registry';

const principalOf = (req: IncomingMessage) => String(req.headers['x-amzn-principal'] ?? '');

/** Things and the certificates attached to them (the installer's provisioning of a unit). */
export const thingRoutes = (state: Registry): Route[] => {
  const { thingOr404, certByArn, thingArn, describe } = registryLookups(state);
  return [
    {
      op: 'CreateThing',
      method: 'POST',
      pattern: /^\/things\/([^/]+)$/,
      run: ([name = ''], _q, body) => {
        const attributes = ((body.attributePayload as { attributes?: Record<string, string> } | undefined)?.attributes ?? {}) as Record<string, string>;
        checkAttributes(attributes);
        const existing = state.things[name];
        if (existing) {
          // IoT answers the existing thing when nothing differs, else a conflict.
          if (JSON.stringify(existing.attributes) !== JSON.stringify(attributes)) throw new IotError(409, 'ResourceAlreadyExistsException', `Thing ${name} already exists in account with different attributes`);
          return { thingName: name, thingArn: thingArn(name), thingId: existing.thingId };
        }
        const t: StoredThing = { thingName: name, thingId: randomUUID(), attributes, version: 1, principals: [] };
        state.things[name] = t;
        return { thingName: name, thingArn: thingArn(name), thingId: t.thingId };
      },
    },
    { op: 'DescribeThing', method: 'GET', pattern: /^\/things\/([^/]+)$/, run: ([name = '']) => describe(thingOr404(name)) },
    {
      op: 'ListThings',
      method: 'GET',
      pattern: /^\/things$/,
      run: (_m, q) => {
        const name = q.get('attributeName');
        const value = q.get('attributeValue');
        const all = Object.values(state.things)
          .filter((t) => !name || t.attributes[name] === value)
          .sort((a, b) => a.thingName.localeCompare(b.thingName));
        const max = Math.min(250, Number(q.get('maxResults') ?? 50) || 50);
        const start = Number(q.get('nextToken') ?? 0) || 0;
        const page = all.slice(start, start + max);
        return { things: page.map((t) => ({ thingName: t.thingName, thingArn: thingArn(t.thingName), attributes: t.attributes, version: t.version })), ...(start + max < all.length ? { nextToken: String(start + max) } : {}) };
      },
    },
    {
      op: 'UpdateThing',
      method: 'PATCH',
      pattern: /^\/things\/([^/]+)$/,
      run: ([name = ''], _q, body) => {
        const t = thingOr404(name);
        if (body.expectedVersion !== undefined && Number(body.expectedVersion) !== t.version) throw new IotError(409, 'VersionConflictException', `The version for thing ${name} does not match the expected version.`);
        const payload = (body.attributePayload ?? {}) as { attributes?: Record<string, string>; merge?: boolean };
        checkAttributes(payload.attributes ?? {});
        const next = payload.merge ? { ...t.attributes, ...payload.attributes } : { ...(payload.attributes ?? {}) };
        // IoT removes an attribute set to an empty value when merging.
        for (const [k, v] of Object.entries(next)) if (v === '') delete next[k];
        t.attributes = next;
        t.version += 1;
        return {};
      },
    },
    {
      op: 'DeleteThing',
      method: 'DELETE',
      pattern: /^\/things\/([^/]+)$/,
      run: ([name = '']) => {
        const t = state.things[name];
        if (!t) return {};
        if (t.principals.length) throw new IotError(409, 'InvalidRequestException', `Cannot delete thing ${name}: it has attached principals.`);
        delete state.things[name];
        return {};
      },
    },
    {
      op: 'AttachThingPrincipal',
      method: 'PUT',
      pattern: /^\/things\/([^/]+)\/principals$/,
      run: ([name = ''], _q, _b, req) => {
        const t = thingOr404(name);
        const arn = certByArn(principalOf(req)).certificateArn;
        if (!t.principals.includes(arn)) t.principals.push(arn);
        return {};
      },
    },
    {
      op: 'DetachThingPrincipal',
      method: 'DELETE',
      pattern: /^\/things\/([^/]+)\/principals$/,
      run: ([name = ''], _q, _b, req) => {
        const t = thingOr404(name);
        t.principals = t.principals.filter((p) => p !== principalOf(req));
        return {};
      },
    },
    { op: 'ListThingPrincipals', method: 'GET', pattern: /^\/things\/([^/]+)\/principals$/, run: ([name = '']) => ({ principals: thingOr404(name).principals }) },
  ];
};

/** Certificates from the local CA and the policies attached to them. */
export const certificateRoutes = (state: Registry, ca: LocalCa): Route[] => {
  const { certOr404, certByArn } = registryLookups(state);
  return [
    {
      op: 'CreateKeysAndCertificate',
      method: 'POST',
      pattern: /^\/keys-and-certificate$/,
      run: (_m, q) => {
        const issued = ca.issueDevice(`AWS IoT Certificate ${randomUUID()}`);
        const c: StoredCertificate = {
          certificateId: issued.certificateId,
          certificateArn: `${ARN}:cert/${issued.certificateId}`,
          certificatePem: issued.certificatePem,
          status: q.get('setAsActive') === 'true' ? 'ACTIVE' : 'INACTIVE',
          policies: [],
        };
        state.certificates[c.certificateId] = c;
        return { certificateArn: c.certificateArn, certificateId: c.certificateId, certificatePem: c.certificatePem, keyPair: { PublicKey: issued.publicKeyPem, PrivateKey: issued.privateKeyPem } };
      },
    },
    {
      op: 'UpdateCertificate',
      method: 'PUT',
      pattern: /^\/certificates\/([^/]+)$/,
      run: ([id = ''], q) => {
        const status = q.get('newStatus');
        if (status !== 'ACTIVE' && status !== 'INACTIVE') throw new IotError(400, 'InvalidRequestException', `newStatus ${status ?? ''} is not supported here`);
        certOr404(id).status = status;
        return {};
      },
    },
    {
      op: 'DescribeCertificate',
      method: 'GET',
      pattern: /^\/certificates\/([^/]+)$/,
      run: ([id = '']) => {
        const c = certOr404(id);
        return { certificateDescription: { certificateId: c.certificateId, certificateArn: c.certificateArn, certificatePem: c.certificatePem, status: c.status } };
      },
    },
    {
      op: 'ListCertificates',
      method: 'GET',
      pattern: /^\/certificates$/,
      run: () => ({ certificates: Object.values(state.certificates).map((c) => ({ certificateId: c.certificateId, certificateArn: c.certificateArn, status: c.status })) }),
    },
    {
      op: 'DeleteCertificate',
      method: 'DELETE',
      pattern: /^\/certificates\/([^/]+)$/,
      run: ([id = ''], q) => {
        const c = certOr404(id);
        if (c.status === 'ACTIVE') throw new IotError(409, 'CertificateStateException', 'Certificate must be deactivated before deletion.');
        const attached = Object.values(state.things).some((t) => t.principals.includes(c.certificateArn));
        if (q.get('forceDelete') !== 'true' && (c.policies.length || attached)) throw new IotError(409, 'DeleteConflictException', 'Things or policies are attached to the certificate.');
        if (attached) throw new IotError(409, 'DeleteConflictException', 'Things are attached to the certificate.');
        delete state.certificates[id];
        return {};
      },
    },
    {
      op: 'AttachPolicy',
      method: 'PUT',
      pattern: /^\/target-policies\/([^/]+)$/,
      run: ([policy = ''], _q, body) => {
        const c = certByArn(String(body.target ?? ''));
        if (!c.policies.includes(policy)) c.policies.push(policy);
        return {};
      },
    },
    {
      op: 'DetachPolicy',
      method: 'POST',
      pattern: /^\/target-policies\/([^/]+)$/,
      run: ([policy = ''], _q, body) => {
        const c = certByArn(String(body.target ?? ''));
        c.policies = c.policies.filter((p) => p !== policy);
        return {};
      },
    },
  ];
};
