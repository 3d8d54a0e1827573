import { GATEWAY_MESSAGES as M, gatewayJson, gatewayPath, temperatureOf, type CollectionEvent, type DairyEventKind, type GatewayAnswer, type MilkingEvent, type VatException } from './payloads';

/**
 * The external telemetry interface page's scenarios E2E01-E2E10 (operator §2 "External telemetry
 * interface page"): each a real exchange. The requests are built with the exporter's own schema
 * types and serializer (payloads.ts); test/integration/dairy-link.test.ts sends every one to the
 * local gateway stand-in and checks that it answers what the page shows.
 */

/** The farm ids the page names: one the company knows, one it does not. */
export const DOC_REAL_FARM = '31245';
export const DOC_FAKE_FARM = '99999';
/** The partner's test gateway, as the page lists it. */
export const DOC_TEST_GATEWAY = 'https://api-test.dairy-company.example';

interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly kind: DairyEventKind;
  readonly supplierId: string;
  /** The path on the gateway (POST). */
  readonly url: string;
  readonly timestamp: string;
  /** The request body exactly as sent (text, so a temperature's decimal place is visible). */
  readonly request: string;
  readonly status: 200 | 400;
  readonly response: GatewayAnswer;
}

const milking: MilkingEvent = {
  TotalVolume: 27000,
  MilkingDateTime: '2026-11-20T05:30:00Z',
  VatMilkingDetails: [
    { VatID: 1, VatVolume: 20800 },
    { VatID: 2, VatVolume: 6200 },
  ],
};
const window = (startDate: string) => ({
  UserID: 'vatman',
  MilkingSchedule: {
    CleanInPlaceTime: 15,
    Confirmed: true,
    MilkingCycle: 'Twice per Day',
    StartDate: startDate,
    MilkingPeriods: [
      { StartTime: 330, Duration: 120 },
      { StartTime: 930, Duration: 120 },
    ],
  },
});
const collection: CollectionEvent = {
  CollectionDateTime: '2026-11-20T14:10:00Z',
  AverageTemperatureAtCollection: temperatureOf(3.9),
  TotalVolumeBeforeCollection: 27000,
  TotalVolumeAfterCollection: 0,
  CollectionOccurredDuringMilking: false,
  VatCollectionDetails: [
    { VatID: 1, VatVolumeBeforeCollection: 20800, VatVolumeAfterCollection: 0, VatTemperature: temperatureOf(3.8) },
    { VatID: 2, VatVolumeBeforeCollection: 6200, VatVolumeAfterCollection: 0, VatTemperature: temperatureOf(4.2) },
  ],
};
const { CollectionDateTime: _left, ...collectionWithoutDate } = collection;
const exception = (e: VatException) => e;

const scenario = (
  id: string,
  title: string,
  kind: DairyEventKind,
  supplierId: string,
  body: unknown,
  status: 200 | 400,
  message: string,
  rawRequest?: string,
): Scenario => ({
  id,
  title,
  kind,
  supplierId,
  url: gatewayPath(supplierId, kind),
  timestamp: '2026-11-20T05:31:02Z',
  request: rawRequest ?? gatewayJson(body),
  status,
  response: { code: status, message },
});

export const SCENARIOS: readonly Scenario[] = [
  scenario('E2E01', 'Milking event', 'milkingevent', DOC_REAL_FARM, milking, 200, M.milkingUpdated(DOC_REAL_FARM)),
  scenario('E2E02', 'Milking event with a milking time window', 'milkingevent', DOC_REAL_FARM, { ...milking, MilkingTimeWindow: window('2026-11-20') }, 200, M.milkingUpdated(DOC_REAL_FARM)),
  scenario('E2E03', 'Milking event for a farm the company does not know', 'milkingevent', DOC_FAKE_FARM, milking, 400, M.farmInvalid(DOC_FAKE_FARM)),
  scenario('E2E04', 'Milking event with a malformed MilkingDateTime', 'milkingevent', DOC_REAL_FARM, { ...milking, MilkingDateTime: '20/11/2026 05:30' }, 400, M.milkingDateInvalid),
  scenario(
    'E2E05',
    'Milking time window starting before the milking',
    'milkingevent',
    DOC_REAL_FARM,
    { ...milking, MilkingTimeWindow: window('2026-11-19') },
    400,
    M.windowUnavailable,
  ),
  scenario('E2E06', 'Collection event', 'collectionevent', DOC_REAL_FARM, collection, 200, M.collectionUpdated(DOC_REAL_FARM)),
  scenario('E2E07', 'Collection event without CollectionDateTime', 'collectionevent', DOC_REAL_FARM, collectionWithoutDate, 400, M.fieldMissing('CollectionDateTime')),
  scenario(
    'E2E08',
    'Collection event with a whole-number temperature',
    'collectionevent',
    DOC_REAL_FARM,
    undefined,
    400,
    M.temperatureNotDecimal('9'),
    gatewayJson(collection).replace('"AverageTemperatureAtCollection":3.9', '"AverageTemperatureAtCollection":9'),
  ),
  scenario(
    'E2E09',
    'Vat exception: APC high',
    'vatexceptions',
    DOC_REAL_FARM,
    exception({ VatID: 1, Type: 'ApcHigh', DateTime: '2026-11-20T09:00:00Z', Description: { APC: 5.4, Agitator: '00:12:00' } }),
    200,
    M.exceptionUpdated(DOC_REAL_FARM),
  ),
  scenario(
    'E2E10',
    'Vat exception: late milking',
    'vatexceptions',
    DOC_REAL_FARM,
    exception({ VatID: 2, Type: 'LateMilking', DateTime: '2026-11-20T17:40:00Z', Description: { Limit: '01:20:00' } }),
    200,
    M.exceptionUpdated(DOC_REAL_FARM),
  ),
];
