import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { LocalCa } from './local-ca';
import { listenLocal } from './aws-json-server';

/** The account and region of local ARNs. */
const ARN = 'arn:aws:iot:us-east-1:000000000000';

interface StoredThing {
  thingName: string;
  thingId: string;
  attributes: Record<string, string>;
  version: number;
  principals: string[];
}
interface StoredCertificate {
  certificateId: string;
  certificateArn: string;
  certificatePem: string;
  status: 'ACTIVE' | 'INACTIVE';
  /** Policies attached to the certificate (AttachPolicy's target). */
  policies: string[];
}
interface Registry {
  things: Record<string, StoredThing>;
  certificates: Record<string, StoredCertificate>;
}

/** IoT operations the stand-in serves, by name: what `failNext` can make fail. */
export type IotOperation =
  | 'CreateThing'
  | 'DescribeThing'
  | 'ListThings'
  | 'UpdateThing'
  | 'DeleteThing'
  | 'CreateKeysAndCertificate'
  | 'UpdateCertificate'
  | 'DescribeCertificate'
  | 'ListCertificates'
  | 'DeleteCertificate'
  | 'AttachPolicy'
  | 'DetachPolicy'
  | 'AttachThingPrincipal'
  | 'DetachThingPrincipal'
  | 'ListThingPrincipals'
  | 'DescribeEndpoint';

class IotError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface IotControlPlane {
  readonly server: Server;
  /** What IOT_ENDPOINT points the @aws-sdk/client-iot at. */
  readonly endpoint: string;
  thing(name: string): StoredThing | undefined;
  certificates(): StoredCertificate[];
  /** The certificate of a PEM a client presented (the broker's mutual-TLS check), when ACTIVE. */
  certificateByPem(pem: string): StoredCertificate | undefined;
  /** The thing a certificate is attached to (AttachThingPrincipal). */
  thingOfCertificate(certificateArn: string): StoredThing | undefined;
  /** The certificates attached to a thing, with their status and policies (tests: "exactly one active certificate"). */
  certificatesOfThing(thingName: string): StoredCertificate[];
  /** Makes the next call of `operation` fail (400 InvalidRequestException, not retried): tests of undo. */
  failNext(operation: IotOperation): void;
  /** A thing as a deployed fleet would already have it (the demo farms' units). */
  ensureThing(name: string, attributes: Record<string, string>): void;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });

/** IoT's pattern for an attribute value (no spaces). */
const ATTRIBUTE_VALUE = /^[a-zA-Z0-9_.,@/:#=[\]-]*$/;
const checkAttributes = (attributes: Record<string, string>) => {
  for (const [k, v] of Object.entries(attributes)) {
    if (!ATTRIBUTE_VALUE.test(v)) throw new IotError(400, 'InvalidRequestException', `1 validation error detected: Value '${v}' at 'attributePayload.attributes.${k}' failed to satisfy constraint: Member must satisfy regular expression pattern: ${ATTRIBUTE_VALUE.source}`);
  }
};

const normalisePem = (pem: string) => pem.replace(/\r/g, '').trim();

/**
 * AWS IoT control-plane stand-in: the IoT API's REST-JSON protocol for the calls the installer
 * makes (CreateThing, DescribeThing, ListThings, UpdateThing, DeleteThing,
 * CreateKeysAndCertificate, UpdateCertificate, DescribeCertificate, ListCertificates,
 * DeleteCertificate, AttachPolicy, DetachPolicy,
 * AttachThingPrincipal, DetachThingPrincipal, ListThingPrincipals, DescribeEndpoint), so the
 * product's @aws-sdk/client-iot code runs unchanged with only IOT_ENDPOINT set. Certificates are
 * real X.509 from the local CA; the registry is kept in `dir` (it survives restarts). Signatures
 * are not checked (the local credentials are not secret).
 */
export const startIotControlPlane = async (port: number, dir: string, ca: LocalCa, dataEndpoint: string): Promise<IotControlPlane> => {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'registry.json');
  const state: Registry = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Registry) : { things: {}, certificates: {} };
  const save = () => writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
  const failing = new Set<IotOperation>();

  const thingOr404 = (name: string): StoredThing => {
    const t = state.things[name];
    if (!t) throw new IotError(404, 'ResourceNotFoundException', `Thing ${name} cannot be found.`);
    return t;
  };
  const certOr404 = (id: string): StoredCertificate => {
    const c = state.certificates[id];
    if (!c) throw new IotError(404, 'ResourceNotFoundException', `The certificate ${id} cannot be found.`);
    return c;
  };
  const certByArn = (arn: string): StoredCertificate => {
    const c = Object.values(state.certificates).find((x) => x.certificateArn === arn);
    if (!c) throw new IotError(404, 'ResourceNotFoundException', `The principal ${arn} cannot be found.`);
    return c;
  };
  const thingArn = (name: string) => `${ARN}:thing/${name}`;
  const describe = (t: StoredThing) => ({ defaultClientId: t.thingName, thingName: t.thingName, thingId: t.thingId, thingArn: thingArn(t.thingName), attributes: t.attributes, version: t.version });

  type Route = { op: IotOperation; method: string; pattern: RegExp; run: (m: string[], q: URLSearchParams, body: Record<string, unknown>, req: IncomingMessage) => unknown };
  const principalOf = (req: IncomingMessage) => String(req.headers['x-amzn-principal'] ?? '');
  const routes: Route[] = [
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
    {
      op: 'DescribeEndpoint',
      method: 'GET',
      pattern: /^\/endpoint$/,
      run: () => ({ endpointAddress: dataEndpoint }),
    },
  ];

  const reply = (res: ServerResponse, status: number, body: unknown, code?: string) => {
    res.writeHead(status, { 'content-type': 'application/json', ...(code ? { 'x-amzn-errortype': code } : {}), 'x-amzn-requestid': randomUUID() });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = url.pathname.split('/').map(decodeURIComponent).join('/');
      const route = routes.find((r) => r.method === req.method && r.pattern.test(path));
      if (!route) return reply(res, 404, { message: `No IoT operation at ${req.method ?? ''} ${path}` }, 'UnknownOperationException');
      try {
        const raw = await readBody(req);
        // A client error, which the SDK does not retry (a 500 would be retried and succeed).
        if (failing.delete(route.op)) throw new IotError(400, 'InvalidRequestException', `${route.op} failed (injected by the local stack)`);
        const out = route.run((route.pattern.exec(path) ?? []).slice(1), url.searchParams, raw ? (JSON.parse(raw) as Record<string, unknown>) : {}, req);
        if (route.method !== 'GET') save();
        reply(res, 200, out);
      } catch (err) {
        if (err instanceof IotError) reply(res, err.status, { message: err.message }, err.code);
        else reply(res, 500, { message: String(err) }, 'InternalFailureException');
      }
    })();
  });
  await listenLocal(server, port);

  return {
    server,
    endpoint: `http://127.0.0.1:${port}`,
    thing: (name) => state.things[name],
    certificates: () => Object.values(state.certificates),
    certificateByPem: (pem) => Object.values(state.certificates).find((c) => c.status === 'ACTIVE' && normalisePem(c.certificatePem) === normalisePem(pem)),
    thingOfCertificate: (arn) => Object.values(state.things).find((t) => t.principals.includes(arn)),
    certificatesOfThing: (name) => Object.values(state.certificates).filter((c) => state.things[name]?.principals.includes(c.certificateArn)),
    failNext: (op) => failing.add(op),
    ensureThing(name, attributes) {
      if (state.things[name]) return;
      state.things[name] = { thingName: name, thingId: randomUUID(), attributes, version: 1, principals: [] };
      save();
    },
  };
};
