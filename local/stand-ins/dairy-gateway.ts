import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  COLLECTION_REQUIRED_FIELDS,
  GATEWAY_DATETIME,
  GATEWAY_MESSAGES as M,
  VAT_EXCEPTION_TYPES,
  gatewayDateTime,
  type DairyEventKind,
  type Docket,
  type GatewayAnswer,
} from '../../shared/dairy-company/payloads';

/** One event the gateway accepted (an answer of 200), once per idempotency key. */
interface ReceivedEvent {
  readonly kind: DairyEventKind;
  readonly supplierId: string;
  readonly key: string | null;
  readonly at: string;
  readonly body: unknown;
}

/** A pickup as the tanker measured it (the truth the dockets are made from). */
interface TankerPickup {
  readonly supplierId: string;
  readonly vatId: number;
  /** ISO date-time of the pickup. */
  readonly at: string;
  readonly litres: number;
  readonly temperature: number;
}

interface DairyGatewayOptions {
  /** Supply numbers the company knows; any other answers 'Error 2 - Farm {id} is invalid'. */
  readonly farms: readonly string[];
  /** The bearer token the gateway expects (the real one's credentials come from SSM in AWS). */
  readonly token: string;
  /**
   * Vats whose dockets read off by a factor (0.96: the company's figure is 4 % below what the vat's
   * configuration says), so calibration has something to find. Key `supplierId#vatId`.
   */
  readonly offVats?: Readonly<Record<string, number>>;
}

export interface DairyGateway {
  readonly server: Server;
  readonly url: string;
  /** Accepted events, oldest first. */
  received(): ReceivedEvent[];
  /** Every request, answered or not (status 0 while down), for the log of a test. */
  requests(): { kind: string; supplierId: string; key: string | null; status: number }[];
  /** The tanker empties a vat: a docket follows, with the tanker meter's noise. */
  tanker(p: TankerPickup): Docket;
  dockets(supplierId: string): Docket[];
  /** The gateway answers 503 to everything until `until` (epoch ms). */
  outage(until: number): void;
  /** The company issues a new token: from now on only it is accepted (the old one answers 401). */
  rotateToken(token: string): void;
}

/** Deterministic noise per docket: a hash of the pickup, so a restart makes the same docket. */
const unit = (seed: string, salt: string): number => createHash('sha256').update(`${seed}|${salt}`).digest().readUInt32BE(0) / 2 ** 32;

/** Tanker meters read within ±0.25 % and ±0.1 °C (realistic for a flow meter and probe). */
const VOLUME_NOISE = 0.0025;
const TEMPERATURE_NOISE = 0.1;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dairy company's telemetry gateway, locally (operator §7 "External telemetry interface",
 * §8 documented external errors). It applies every documented rule with the documented words,
 * in this order: the farm, the required fields, the formats. Undocumented cases answer in the same
 * style and are marked so in docs/architecture.md. Each request may carry an `Idempotency-Key`:
 * the first answer to a key is kept and replayed, so an event retried after a lost answer is
 * recorded once. Dockets (GET …/dockets?from&to) are made from what `tanker` was told, with meter
 * noise and the configured off vats.
 */
export const startDairyGateway = async (port: number, options: DairyGatewayOptions): Promise<DairyGateway> => {
  const farms = new Set(options.farms.map((f) => f.toUpperCase()));
  const accepted: ReceivedEvent[] = [];
  const log: { kind: string; supplierId: string; key: string | null; status: number }[] = [];
  const answers = new Map<string, { status: number; answer: GatewayAnswer }>();
  const docketsBySupplier = new Map<string, Docket[]>();
  let downUntil = 0;
  let token = options.token;

  const send = (res: ServerResponse, status: number, answer: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  const bad = (message: string) => ({ status: 400, answer: { code: 400, message } });
  const good = (message: string) => ({ status: 200, answer: { code: 200, message } });

  /** The raw token of a key's value in the body text (so 9 and 9.0 can be told apart). */
  const tokensOf = (text: string, key: string): string[] =>
    [...text.matchAll(new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|[^,}\\]\\s]+)`, 'g'))].map((m) => (m[1] ?? '').replace(/^"|"$/g, ''));
  const temperatureError = (text: string): string | undefined => {
    for (const key of ['AverageTemperatureAtCollection', 'VatTemperature']) {
      const wrong = tokensOf(text, key).find((t) => !/^-?\d+\.\d$/.test(t));
      if (wrong !== undefined) return M.temperatureNotDecimal(wrong);
    }
    return undefined;
  };
  const missing = (body: Record<string, unknown>, fields: readonly string[]) => fields.find((f) => body[f] === undefined || body[f] === null);

  const judge = (kind: DairyEventKind, supplierId: string, text: string): { status: number; answer: GatewayAnswer } => {
    if (!farms.has(supplierId.toUpperCase())) return bad(M.farmInvalid(supplierId));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return bad('Request message is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bad('Request message is not valid JSON');
    const body = parsed as Record<string, unknown>;
    if (kind === 'milkingevent') {
      const gap = missing(body, ['MilkingDateTime', 'TotalVolume', 'VatMilkingDetails']);
      if (gap) return bad(M.fieldMissing(gap));
      if (typeof body.MilkingDateTime !== 'string' || !GATEWAY_DATETIME.test(body.MilkingDateTime) || Number.isNaN(Date.parse(body.MilkingDateTime)))
        return bad(M.milkingDateInvalid);
      const window = body.MilkingTimeWindow as { MilkingSchedule?: { StartDate?: unknown; MilkingPeriods?: { StartTime?: unknown }[] } } | undefined;
      if (window) {
        const schedule = window.MilkingSchedule;
        const startDate = schedule?.StartDate;
        const first = schedule?.MilkingPeriods?.[0]?.StartTime;
        // A schedule may start on the milking's day or later, at a minute of that day; an
        // earlier start (or none) is not available.
        const available =
          typeof startDate === 'string' &&
          DATE_ONLY.test(startDate) &&
          startDate >= body.MilkingDateTime.slice(0, 10) &&
          typeof first === 'number' &&
          Number.isInteger(first) &&
          first >= 0 &&
          first < 1440;
        if (!available) return bad(M.windowUnavailable);
      }
      return good(M.milkingUpdated(supplierId));
    }
    if (kind === 'collectionevent') {
      const gap = missing(body, COLLECTION_REQUIRED_FIELDS);
      if (gap) return bad(M.fieldMissing(gap));
      if (typeof body.CollectionDateTime !== 'string' || !GATEWAY_DATETIME.test(body.CollectionDateTime)) return bad('CollectionDateTime format is invalid');
      const temperature = temperatureError(text);
      if (temperature) return bad(temperature);
      return good(M.collectionUpdated(supplierId));
    }
    const gap = missing(body, ['VatID', 'Type', 'DateTime', 'Description']);
    if (gap) return bad(M.fieldMissing(gap));
    if (!(VAT_EXCEPTION_TYPES as readonly unknown[]).includes(body.Type)) return bad(`Type ${String(body.Type)} is invalid`);
    if (typeof body.DateTime !== 'string' || !GATEWAY_DATETIME.test(body.DateTime)) return bad('DateTime format is invalid');
    return good(M.exceptionUpdated(supplierId));
  };

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (text += c));
      req.on('end', () => resolve(text));
    });

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://gateway');
      const text = await readBody(req);
      const match = /^\/v5\/milkvattelemetry\/([^/]+)\/(milkingevent|collectionevent|vatexceptions|dockets)$/.exec(url.pathname);
      if (!match) return send(res, 404, { code: 404, message: 'Not Found' });
      const supplierId = decodeURIComponent(match[1] ?? '');
      const kind = match[2] as DairyEventKind | 'dockets';
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
      if (Date.now() < downUntil) {
        log.push({ kind, supplierId, key, status: 503 });
        return send(res, 503, { code: 503, message: 'Service Unavailable' });
      }
      if (req.headers.authorization !== `Bearer ${token}`) {
        log.push({ kind, supplierId, key, status: 401 });
        return send(res, 401, { code: 401, message: 'Unauthorized' });
      }
      if (kind === 'dockets') {
        if (req.method !== 'GET') return send(res, 405, { code: 405, message: 'Method Not Allowed' });
        if (!farms.has(supplierId.toUpperCase())) return send(res, 400, { code: 400, message: M.farmInvalid(supplierId) });
        const from = url.searchParams.get('from') ?? '';
        const to = url.searchParams.get('to') ?? '9999';
        return send(res, 200, (docketsBySupplier.get(supplierId.toUpperCase()) ?? []).filter((d) => d.PickupDateTime >= from && d.PickupDateTime <= to));
      }
      if (req.method !== 'POST') return send(res, 405, { code: 405, message: 'Method Not Allowed' });
      const replay = key ? answers.get(`${supplierId}|${kind}|${key}`) : undefined;
      const result = replay ?? judge(kind, supplierId, text);
      log.push({ kind, supplierId, key, status: result.status });
      if (!replay) {
        if (key) answers.set(`${supplierId}|${kind}|${key}`, result);
        if (result.status === 200) accepted.push({ kind, supplierId, key, at: new Date().toISOString(), body: JSON.parse(text) as unknown });
      }
      return send(res, result.status, result.answer);
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

  const tanker = (p: TankerPickup): Docket => {
    const id = `${p.supplierId.toUpperCase()}-${p.vatId}-${gatewayDateTime(p.at)}`;
    const factor = options.offVats?.[`${p.supplierId.toUpperCase()}#${p.vatId}`] ?? 1;
    const docket: Docket = {
      DocketID: id,
      VatID: p.vatId,
      PickupDateTime: gatewayDateTime(p.at),
      Volume: Math.round(p.litres * factor * (1 + (unit(id, 'v') * 2 - 1) * VOLUME_NOISE)),
      Temperature: Math.round((p.temperature + (unit(id, 't') * 2 - 1) * TEMPERATURE_NOISE) * 10) / 10,
    };
    const list = docketsBySupplier.get(p.supplierId.toUpperCase()) ?? [];
    docketsBySupplier.set(p.supplierId.toUpperCase(), [...list.filter((d) => d.DocketID !== id), docket].sort((a, b) => a.PickupDateTime.localeCompare(b.PickupDateTime)));
    return docket;
  };

  return {
    server,
    url: `http://127.0.0.1:${port}`,
    received: () => [...accepted],
    requests: () => [...log],
    tanker,
    dockets: (supplierId) => [...(docketsBySupplier.get(supplierId.toUpperCase()) ?? [])],
    outage: (until) => {
      downUntil = until;
    },
    rotateToken: (next) => {
      token = next;
    },
  };
};
