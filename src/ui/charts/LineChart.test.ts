// The chart's server render (no DOM here; uPlot itself runs only in effects, in a browser): what
// assistive technology gets, the accessible name and the data table. The canvas is covered end to end.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LineChart } from './LineChart';

const reward = {
  label: 'Mean reward',
  points: [
    [1, 0.2],
    [2, 0.4],
    [3, NaN],
    [4, 0.5],
  ] as [number, number][],
};

describe('LineChart (server render)', () => {
  it('is a figure named by its title, the canvas hidden and a table with the data', () => {
    const html = renderToString(createElement(LineChart, { title: 'Mean reward', series: [reward], smoothing: 0.5 }));
    expect(html).toMatch(/<figure class="lab-chart" aria-label="Mean reward">/);
    expect(html).toMatch(/<div class="lab-chart-plot" aria-hidden="true"><\/div>/);
    expect(html).toContain('<caption>Mean reward</caption>');
    expect(html).toContain(
      '<th scope="col">Step</th><th scope="col">Mean reward</th><th scope="col">Mean reward (smoothed)</th>',
    );
    // w = 0.5 on 0.2, 0.4, (NaN skipped), 0.5: ema 0.1, 0.25, 0.375; debiased 0.2, 1/3, 3/7
    expect(html).toContain('<tr><th scope="row">1</th><td>0.2</td><td>0.2</td></tr>');
    expect(html).toContain('<tr><th scope="row">2</th><td>0.4</td><td>0.3333</td></tr>');
    expect(html).toContain('<tr><th scope="row">4</th><td>0.5</td><td>0.4286</td></tr>');
    expect(html).not.toContain('scope="row">3<');
  });

  it('shows one column per series without smoothing, and says when the table is cut', () => {
    const loss = { label: 'Loss', points: Array.from({ length: 30 }, (_, i) => [i, 1 / (i + 1)] as [number, number]) };
    const html = renderToString(
      createElement(LineChart, { title: 'Loss', series: [loss], smoothing: 0, tableLimit: 10, xLabel: 'Update' }),
    );
    expect(html).toContain('<th scope="col">Update</th><th scope="col">Loss</th></tr>');
    expect(html.match(/scope="row"/g)).toHaveLength(10);
    expect(html).toContain('<th scope="row">29</th>');
    expect(html).toContain('The latest 10 of 30 update values.');
  });
});
