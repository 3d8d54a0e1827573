import type { IncomingMessage } from 'node:http';

/**
 * The IoT control-plane stand-in's registry (things and certificates, kept in registry.json) and the
 * lookups its operations share (iot-control.ts serves them, iot-routes.ts defines them).
 */
/** The account and region of local ARNs. */
export const ARN = 'arn:aws:iot:us-east-1:000000000000';

export interface StoredThing {
  thingName: string;
  thingId: string;
  attributes: Record<string, string>;
  version: number;
  principals: string[];
}
export interface StoredCertificate {
  certificateId: string;
  certificateArn: string;
  certificatePem: string;
  status: 'ACTIVE' | 'INACTIVE';
  /** Policies attached to the certificate (AttachPolicy's target). */
  policies: string[];
}
export interface Registry {
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

export class IotError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** IoT's pattern for an attribute value (no spaces). */
const ATTRIBUTE_VALUE = /^[a-zA-Z0-9_.,@/:#=[\]-]*$/;
export const checkAttributes = (attributes: Record<string, string>) => {
  for (const [k, v] of Object.entries(attributes)) {
    if (!ATTRIBUTE_VALUE.test(v)) throw new IotError(400, 'InvalidRequestException', `1 validation error detected: Value '${v}' at 'attributePayload.attributes.${k}' failed to satisfy constraint: Member must satisfy regular expression pattern: ${ATTRIBUTE_VALUE.source}`);
  }
};

export const normalisePem = (pem: string) => pem.replace(/\r/g, '').trim();

/** One IoT operation at its REST-JSON method and path. */
export type Route = { op: IotOperation; method: string; pattern: RegExp; run: (m: string[], q: URLSearchParams, body: Record<string, unknown>, req: IncomingMessage) => unknown };

/** The lookups on a registry that answer IoT's errors for what is not there. */
export const registryLookups = (state: Registry) => {
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
  return { thingOr404, certOr404, certByArn, thingArn, describe };
};
