import { waitFor } from '@testing-library/react';
import { Chart as ChartJS } from 'chart.js';

/** The chart.js instance on a canvas, once react-chartjs-2 has made it (an effect after the canvas renders). */
export const chartOn = (canvas: HTMLElement) =>
  waitFor(() => {
    const chart = ChartJS.getChart(canvas as HTMLCanvasElement);
    if (!chart) throw new Error('no chart on the canvas yet');
    return chart;
  });
