import { describe, expect, it } from 'vitest';
import { countMetric, DELIVERY_DEAD_LETTERS, metricLine } from './metrics';

describe('EMF metric lines', () => {
  it('name the VatMan namespace, the metric with no dimensions, and its count', () => {
    const at = new Date('2026-11-25T10:00:00.000Z');
    expect(JSON.parse(metricLine(DELIVERY_DEAD_LETTERS, 2, at))).toEqual({
      _aws: { Timestamp: at.getTime(), CloudWatchMetrics: [{ Namespace: 'VatMan', Dimensions: [[]], Metrics: [{ Name: 'DeliveryDeadLetters', Unit: 'Count' }] }] },
      DeliveryDeadLetters: 2,
    });
    const lines: string[] = [];
    countMetric(DELIVERY_DEAD_LETTERS, 1, (l) => lines.push(l));
    expect(JSON.parse(lines[0] as string).DeliveryDeadLetters).toBe(1);
  });
});
