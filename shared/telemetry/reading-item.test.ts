import { describe, expect, it } from 'vitest';
import { READING_FIELDS, sameReading, type Reading } from './reading';
import { readingFromItem, readingValues, VALUE_FIELDS } from './reading-item';

const reading: Reading = {
  published_at: '2026-11-25T10:00:00.000Z',
  message_type: 'DATA',
  radar_distance: 1400,
  milk_level: 1038,
  milk_volume: 6104,
  temp1: 3.9,
  temp2: 15.2,
  temp3: null,
  temp4: 14.1,
  temp5: 12.3,
  temp6: null,
  pressure: 1.25,
  shaft_rpm: 96,
  agitator_status: 1,
  state_machine: 'storage',
  battery_status: '0x0B',
  on_mains: true,
  milk_in: 34.8,
  water_in: null,
  quality: null,
  controller_status: null,
};

describe('reading item codec', () => {
  it('keeps the stored order: an item written by the first version 2 still reads the same (READING_FIELDS is append only)', () => {
    const stored = '["DATA",1400,1038,6104,3.9,15.2,null,14.1,12.3,null,1.25,96,1,"storage","0x0B",true,34.8,null,null,null]';
    expect(readingValues(reading).v).toBe(stored);
    expect(readingFromItem({ sk: reading.published_at, v: stored })).toEqual(reading);
  });

  it('a version 2 item reads back as the same reading, fields in READING_FIELDS order', () => {
    const item = { pk: 'R#d1#2026-11-25', sk: reading.published_at, ...readingValues(reading), raw: '{}', expires_at: 1 };
    expect(Object.keys(item).sort()).toEqual(['expires_at', 'pk', 'raw', 'sk', 'v']);
    const back = readingFromItem(item);
    expect(back).toEqual(reading);
    expect(Object.keys(back)).toEqual([...READING_FIELDS]);
    expect(sameReading(back, reading)).toBe(true);
    expect(sameReading(readingFromItem({ ...item, ...readingValues({ ...reading, temp1: 4 }) }), reading)).toBe(false);
  });

  it('a version 1 item (one attribute a field) reads as before, missing attributes as null', () => {
    const { temp6: _t6, pressure: _p, ...rest } = reading;
    const old = { pk: 'R#d1#2026-11-25', sk: reading.published_at, ...rest, device_id: 'd1', raw: '{}', expires_at: 1 };
    expect(readingFromItem(old)).toEqual({ ...reading, temp6: null, pressure: null });
    expect(sameReading(readingFromItem(old), { ...reading, pressure: null })).toBe(true);
  });

  it('an item written with fewer values (an older field list) reads the missing ones as null', () => {
    const short = JSON.stringify(VALUE_FIELDS.slice(0, -2).map((f) => reading[f]));
    expect(readingFromItem({ sk: reading.published_at, v: short })).toEqual({ ...reading, quality: null, controller_status: null });
  });
});
