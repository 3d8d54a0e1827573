import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { FAULT_KINDS, faultRequestSchema, isControllerFault, type ActiveFault, type FaultKind } from './faults';
import { MINUTE, type VatEntry } from './sim-farms';

export interface DeviceFault {
  readonly device: string;
  readonly kind: FaultKind;
  /** Simulated time span, ISO. */
  readonly from: string;
  readonly until: string;
}
type Inject = (f: { device: string; kind: FaultKind; minutes: number }) => DeviceFault;

/** Faults injected into the vats (a unit's: into each of its vats) and the ones going on. */
export const faultInjector = (vats: ReadonlyMap<string, VatEntry>, units: ReadonlyMap<string, readonly VatEntry[]>, log: (line: string) => void) => {
  const toDeviceFault = (device: string, f: ActiveFault): DeviceFault => ({
    device,
    kind: f.kind,
    from: new Date(f.from).toISOString(),
    until: new Date(f.until).toISOString(),
  });

  const inject: Inject = (f) => {
    const req = faultRequestSchema.parse(f);
    // A fault on a unit is a fault on each of its vats (an offline unit: none of them reports).
    const ofUnit = units.get(req.device);
    if (ofUnit) {
      const [first] = ofUnit.map((e) => inject({ ...req, device: e.key }));
      return { ...(first as DeviceFault), device: req.device };
    }
    const e = vats.get(req.device);
    if (!e || e.kind !== 'vat') throw new UnknownDeviceError(req.device, [...vats.keys(), ...units.keys()]);
    if (isControllerFault(req.kind) && !e.controller) throw new Error(`${req.kind} needs a vat with a Vat-Man Auto controller; ${req.device} has none`);
    const fault = toDeviceFault(req.device, e.model.inject(req.kind, req.minutes, e.next));
    log(`simulator: ${fault.kind} on ${fault.device} from ${fault.from} to ${fault.until}`);
    return fault;
  };
  const faults = (): DeviceFault[] =>
    [...vats.values()].flatMap((e) => (e.kind === 'vat' ? e.model.activeFaults(e.next - MINUTE).map((f) => toDeviceFault(e.key, f)) : []));

  return { inject, faults };
};

/** The HTTP control server (GET/POST /faults) on 127.0.0.1; its port is `port`'s, or any free one for 0. */
export const listenControl = async (port: number, inject: Inject, faults: () => DeviceFault[]): Promise<{ server: Server; url: string }> => {
  const server = createServer((req, res) => handleControl(req, res, inject, faults));
  const bound = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : 0);
    });
  });
  return { server, url: `http://127.0.0.1:${bound}` };
};

class UnknownDeviceError extends Error {
  constructor(device: string, known: readonly string[]) {
    super(`unknown device '${device}': the simulator runs ${known.join(', ') || 'no devices'}`);
  }
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(body)}\n`);
};

const handleControl = (
  req: IncomingMessage,
  res: ServerResponse,
  inject: Inject,
  faults: () => DeviceFault[],
) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/faults') return send(res, 404, { error: 'not found: use GET /faults or POST /faults {"device","kind","minutes"}' });
  if (req.method === 'GET') return send(res, 200, { faults: faults() });
  if (req.method !== 'POST') return send(res, 405, { error: 'use GET or POST /faults' });
  let body = '';
  let tooLarge = false;
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    body += chunk;
    if (body.length > 10_000) tooLarge = true;
  });
  req.on('end', () => {
    if (tooLarge) return send(res, 413, { error: 'body too large' });
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return send(res, 400, { error: `body must be JSON: {"device": "<device name>", "kind": "${FAULT_KINDS.join('|')}", "minutes": 60}` });
    }
    const parsed = faultRequestSchema.safeParse(json);
    if (!parsed.success) return send(res, 400, { error: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ') });
    try {
      return send(res, 201, inject(parsed.data));
    } catch (err) {
      return send(res, 400, { error: err instanceof Error ? err.message : String(err) });
    }
  });
};
