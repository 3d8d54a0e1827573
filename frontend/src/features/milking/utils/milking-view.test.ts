import { describe, expect, it } from 'vitest';
import type { DetailPoint } from '@shared/api/actions/farmer-activity';
import { briefPoints, coolingTrace, duration, litres, markersOf, ruleWhen, speed } from './milking-view';

const at = (m: number) => new Date(Date.parse('2026-03-10T04:00:00.000Z') + m * 60_000).toISOString();
const point = (m: number, state: string): DetailPoint => ({ published_at: at(m), temp1: 5, state_machine: state });

describe('milking view (farmer §2.6, §9)', () => {
  it('cuts the cooling trace at the first empty reading after the start, in time order, leaving out readings before the start', () => {
    const trace = coolingTrace([point(30, 'storage'), point(-5, 'empty'), point(0, 'milking'), point(60, 'empty'), point(90, 'storage')], at(0));
    expect(trace.map((p) => p.published_at)).toEqual([at(0), at(30)]);
    expect(coolingTrace([point(0, 'milking'), point(30, 'storage')], at(0))).toHaveLength(2);
  });

  it('lists the markers it has: no End while the milking goes on', () => {
    expect(markersOf({ start: at(0), end: null, h4: at(240), h6: at(360) }).map((m) => m.label)).toEqual(['Start', '+4 h', '+6 h']);
  });

  it('rounds litres to 10 and writes durations and speeds', () => {
    expect([litres(6004), litres(0), litres(null)]).toEqual(['6,000 L', '0 L', '—']);
    expect([duration(45), duration(95), duration(null)]).toEqual(['45 min', '1 h 35 min', '—']);
    expect([speed(50), speed(null)]).toEqual(['50.0 L/min', '—']);
  });

  it('says "Due by" only for the deadline rules while pending', () => {
    expect(ruleWhen({ rule: 'R3', status: 'pending', met_at: null, failed_at: null, deadline: at(600) }, 'Pacific/Auckland')).toBe('Not decided yet');
    expect(ruleWhen({ rule: 'R2', status: 'pending', met_at: null, failed_at: null, deadline: null }, 'Pacific/Auckland')).toBe('Not decided yet');
    expect(ruleWhen({ rule: 'R1', status: 'pending', met_at: null, failed_at: null, deadline: at(240) }, 'UTC')).toMatch(/^Due by \d{2} Mar 2026 \d{2}:\d{2}$/);
  });

  it('keeps the milking on show apart from the others and leaves out unfinished ones', () => {
    const list = [
      { _id: 'a', start: at(0), end: at(90), volume: 1, productivity_l: 4000, duration_min: 90 },
      { _id: 'b', start: at(720), end: at(800), volume: 1, productivity_l: 3000, duration_min: 80 },
      { _id: 'c', start: at(1440), end: null, volume: null, productivity_l: null, duration_min: null },
    ];
    expect(briefPoints(list, 'b')).toEqual({ others: [{ x: Date.parse(at(0)), y: 4000, id: 'a' }], current: [{ x: Date.parse(at(720)), y: 3000, id: 'b' }] });
  });
});
