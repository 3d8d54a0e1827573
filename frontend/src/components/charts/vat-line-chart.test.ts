import { describe, expect, it } from 'vitest';
import { lineChartOptions, Y_AXIS_WIDTH } from './vat-line-chart';

describe('lineChartOptions', () => {
  it('the stirrer chart runs 0 to 1 and reads Stopped and Running', () => {
    const options = lineChartOptions({ unit: 'stirrer', yTitle: 'Stirrer', from: 1, to: 9, shaded: [] });
    const y = options.scales?.['y'] as { min: number; max: number; ticks: { callback: (v: number) => string } };
    expect([y.min, y.max]).toEqual([0, 1]);
    expect([y.ticks.callback(0), y.ticks.callback(1)]).toEqual(['Stopped', 'Running']);
  });

  it('starts the y axis at 0 with its title, fixes x to the range and passes the bands to the shading', () => {
    const shaded = [{ bands: [{ from: 5, to: 6 }], colour: 'red' }];
    const options = lineChartOptions({ unit: 'L', yTitle: 'Litres', from: 1, to: 9, shaded });
    expect(options.scales?.['y']).toMatchObject({ min: 0, beginAtZero: true, title: { display: true, text: 'Litres' } });
    expect(options.scales?.['x']).toMatchObject({ min: 1, max: 9 });
    expect(options.plugins?.bands).toEqual({ shaded });
  });

  it('gives every y axis the same width, so stacked charts line their time axes up', () => {
    const widths = (['L', '°C', 'stirrer'] as const).map((unit) => {
      const y = lineChartOptions({ unit, yTitle: 'y', from: 1, to: 9, shaded: [] }).scales?.['y'] as { afterFit: (axis: { width: number }) => void };
      const axis = { width: unit === 'L' ? 58 : 31 };
      y.afterFit(axis);
      return axis.width;
    });
    expect(widths).toEqual([Y_AXIS_WIDTH, Y_AXIS_WIDTH, Y_AXIS_WIDTH]);
  });
});
