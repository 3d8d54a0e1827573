import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { LocalCa } from './local-ca';
import { listenLocal } from './aws-json-server';
import { IotError, normalisePem, type IotOperation, type Registry, type Route, type StoredCertificate, type StoredThing } from './iot-registry';
import { certificateRoutes, thingRoutes } from './iot-routes';

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

  const routes: Route[] = [
    ...thingRoutes(state),
    ...certificateRoutes(state, ca),
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
