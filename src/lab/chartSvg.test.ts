import { describe, expect, it } from 'vitest';
import { chartSvg, niceTicks } from './chartSvg';

describe('chart SVG export', () => {
  it('draws each series in its colour and dash, a lone point as a dot, and escapes every label', () => {
    const svg = chartSvg({
      title: 'Mean reward <of "A">',
      xLabel: 'Step',
      xs: [1, 2, 3],
      series: [
        { label: 'A: <b>run</b>', color: '#0072B2', dash: [], values: [0.1, 0.2, 0.3] },
        { label: 'B & co', color: '#E69F00', dash: [6, 3], values: [null, 0.25, null] },
      ],
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('Mean reward &lt;of &quot;A&quot;&gt;');
    expect(svg).toContain('A: &lt;b&gt;run&lt;/b&gt;');
    expect(svg).toContain('B &amp; co');
    expect(svg).not.toContain('<b>');
    expect(svg.match(/<polyline [^>]*stroke="#0072B2"/g)).toHaveLength(1);
    expect(svg).toMatch(/<circle [^>]*fill="#E69F00"/);
    expect(svg).toMatch(/stroke="#E69F00" stroke-width="3" stroke-dasharray="6 3"/);
  });

  it('draws a chart of one step (one point) as a dot inside the plot', () => {
    const svg = chartSvg({
      title: 'R',
      xLabel: 'Step',
      xs: [1],
      series: [{ label: 'r', color: '#000', dash: [], values: [0.5] }],
    });
    const m = /<circle cx="([\d.]+)" cy="([\d.]+)"/.exec(svg)!;
    expect(Number(m[1])).toBeGreaterThan(56);
    expect(Number(m[1])).toBeLessThan(640 - 16);
    expect(Number(m[2])).toBeGreaterThan(36);
  });

  it('keeps a rate axis at or above its floor', () => {
    const svg = chartSvg({
      title: 'Success',
      xLabel: 'Step',
      xs: [1, 2],
      series: [{ label: 's', color: '#000', dash: [], values: [0, 0.5] }],
      yMin: 0,
    });
    const ticks = [...svg.matchAll(/text-anchor="end" dominant-baseline="middle" fill="#5b5b66">([^<]+)</g)].map((m) =>
      Number(m[1]),
    );
    expect(Math.min(...ticks)).toBe(0);
  });

  it('picks round ticks', () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(3, 47)).toEqual([10, 20, 30, 40]);
    expect(niceTicks(2, 2)).toEqual([2]);
  });
});
