import { describe, expect, it } from 'vitest';
import { CHART_POINT_CAP } from '@shared/constants';
import { bandsOf, batteryOffBands, referenceLine, seriesOf, temperatureLimitLines, tooltipLines } from './chart-data';

const at = (iso: string) => Date.parse(iso);

describe('seriesOf', () => {
  it('keeps readings that carry the field, in time order', () => {
    const points = [
      { published_at: '2026-03-10T02:00:00Z', milk_volume: 200, temp1: null },
      { published_at: '2026-03-10T01:00:00Z', milk_volume: 100, temp1: 4 },
      { published_at: '2026-03-10T03:00:00Z', temp1: 5 },
    ];
    expect(seriesOf(points, 'milk_volume')).toEqual([
      { x: at('2026-03-10T01:00:00Z'), y: 100 },
      { x: at('2026-03-10T02:00:00Z'), y: 200 },
    ]);
    expect(seriesOf(points, 'temp1').map((p) => p.y)).toEqual([4, 5]);
  });

  it('caps a series at CHART_POINT_CAP, keeping the newest', () => {
    const points = Array.from({ length: CHART_POINT_CAP + 5 }, (_, i) => ({ published_at: new Date(i * 60_000).toISOString(), temp1: i }));
    const series = seriesOf(points, 'temp1');
    expect(series).toHaveLength(CHART_POINT_CAP);
    expect(series.at(-1)?.y).toBe(CHART_POINT_CAP + 4);
  });
});

describe('bandsOf', () => {
  it('turns periods into bands; an open one runs to the range end; a reversed one is dropped', () => {
    const end = at('2026-03-10T12:00:00Z');
    expect(
      bandsOf(
        [
          { start: { published_at: '2026-03-10T01:00:00Z' }, end: { published_at: '2026-03-10T01:30:00Z' } },
          { start: { published_at: '2026-03-10T11:00:00Z' }, end: null },
          { start: { published_at: '2026-03-10T05:00:00Z' }, end: { published_at: '2026-03-10T04:00:00Z' } },
        ],
        end,
      ),
    ).toEqual([
      { from: at('2026-03-10T01:00:00Z'), to: at('2026-03-10T01:30:00Z') },
      { from: at('2026-03-10T11:00:00Z'), to: end },
    ]);
  });
});

describe('referenceLine and tooltipLines', () => {
  it('a reference line spans the range at its value', () => {
    expect(referenceLine(6, 1, 2)).toEqual([
      { x: 1, y: 6 },
      { x: 2, y: 6 },
    ]);
  });

  it('the temperature limits are dashed reference lines at 10 °C and 6 °C across the range (§9)', () => {
    expect(temperatureLimitLines(1, 2)).toEqual([
      { label: '10 °C', data: referenceLine(10, 1, 2), colour: '#c62828', reference: true },
      { label: '6 °C', data: referenceLine(6, 1, 2), colour: '#2e6b31', reference: true },
    ]);
  });

  it("the tooltip gives the farm's date/time in §9's chart format, then value and unit rounded as §9", () => {
    const x = at('2026-11-22T01:05:00Z');
    const [when, value] = tooltipLines(x, 4.26, '°C', 'Pacific/Auckland');
    expect(when).toMatch(/^Sun, 22nd November 14:05( NZDT)?$/);
    expect(tooltipLines(x, 4.26, '°C', 'Europe/London')[0]).toMatch(/^Sun, 22nd November 01:05( GMT)?$/);
    expect(value).toBe('4.3 °C');
    expect(tooltipLines(x, 1234.4, 'L', 'Pacific/Auckland')[1]).toBe('1,230 L');
    expect(tooltipLines(x, 1235, 'L', 'Pacific/Auckland')[1]).toBe('1,240 L');
    expect(tooltipLines(x, 1, 'stirrer', 'Pacific/Auckland')[1]).toBe('Running');
    expect(tooltipLines(x, 0, 'stirrer', 'Pacific/Auckland')[1]).toBe('Stopped');
  });
});

describe('batteryOffBands (odd hex status on, even off)', () => {
  const end = at('2026-03-10T12:00:00Z');
  const rec = (iso: string, status: string) => ({ published_at: iso, raw: { status } });
  it('shades from the first off to the next on, and an off still running to the range end', () => {
    expect(
      batteryOffBands(
        [
          rec('2026-03-10T01:00:00Z', '0x1'),
          rec('2026-03-10T02:00:00Z', 'A'),
          rec('2026-03-10T02:30:00Z', '0C'),
          rec('2026-03-10T03:00:00Z', '0B'),
          rec('2026-03-10T10:00:00Z', '2'),
        ],
        end,
      ),
    ).toEqual([
      { from: at('2026-03-10T02:00:00Z'), to: at('2026-03-10T03:00:00Z') },
      { from: at('2026-03-10T10:00:00Z'), to: end },
    ]);
  });
  it('no off, no band', () => {
    expect(batteryOffBands([rec('2026-03-10T01:00:00Z', '1')], end)).toEqual([]);
  });
});
