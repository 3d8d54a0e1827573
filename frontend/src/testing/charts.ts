import { waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { Chart as ChartJS } from 'chart.js';

/** The chart.js instance on a canvas, once react-chartjs-2 has made it (an effect after the canvas renders). */
export const chartOn = (canvas: HTMLElement) =>
  waitFor(() => {
    const chart = ChartJS.getChart(canvas as HTMLCanvasElement);
    if (!chart) throw new Error('no chart on the canvas yet');
    return chart;
  });

/**
 * §9's seven temperatures in legend order as [label, hidden]: only Vat is drawn until the farmer
 * shows another in the legend.
 */
export const SEVEN_TEMPERATURES_VAT_SHOWN: readonly (readonly [string, boolean])[] = [
  ['Vat', false],
  ['Inlet', true],
  ['Plate', true],
  ['Ambient', true],
  ['CIP', true],
  ['Milk In', true],
  ['Water In', true],
];

/** Every chart marks the one milking (§4) at its start and its end. */
export const expectMilkingMarkers = (charts: readonly ChartJS[], start: string, end: string): void => {
  for (const chart of charts) {
    expect(chart.options.plugins?.markers?.lines?.map((m) => [m?.label, m?.at])).toEqual([
      ['Milking start', Date.parse(start)],
      ['Milking end', Date.parse(end)],
    ]);
  }
};
