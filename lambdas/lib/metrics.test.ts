import { describe, expect, it } from 'vitest';
import { metricFields } from './metrics';
import { DELIVERY_DEAD_LETTERS } from '../ports/metric-names';

describe('EMF metric fields', () => {
  it('name the VatMan namespace, the metric with no dimensions, and its count', () => {
    const at = new Date('2026-11-25T10:00:00.000Z');
    expect(JSON.parse(JSON.stringify({ msg: 'alert delivery dead-lettered', ...metricFields(DELIVERY_DEAD_LETTERS, 2, at) }))).toEqual({
      msg: 'alert delivery dead-lettered',
      _aws: { Timestamp: at.getTime(), CloudWatchMetrics: [{ Namespace: 'VatMan', Dimensions: [[]], Metrics: [{ Name: 'DeliveryDeadLetters', Unit: 'Count' }] }] },
      DeliveryDeadLetters: 2,
    });
  });
});
