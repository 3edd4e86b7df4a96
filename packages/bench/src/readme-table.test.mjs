import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BEGIN, BROWSER_BEGIN, BROWSER_END, DEFAULT_BROWSER_RESULTS, DEFAULT_README, DEFAULT_RESULTS, END, extractFigures, renderBrowserFigures, renderFigures, replaceFigures } from './readme-table.mjs';

describe('README figures', () => {
  it('are what results/latest.json generates (rerun `npm run readme-table -w @fulcrum/bench` after a full run)', () => {
    const doc = JSON.parse(readFileSync(DEFAULT_RESULTS, 'utf8'));
    const readme = readFileSync(DEFAULT_README, 'utf8');
    const current = extractFigures(readme);
    expect(current, `README.md needs a ${BEGIN} … ${END} section`).not.toBeNull();
    expect(current).toBe(renderFigures(doc));
  });

  it('of the React layer are what results/browser.json generates', () => {
    const doc = JSON.parse(readFileSync(DEFAULT_BROWSER_RESULTS, 'utf8'));
    const current = extractFigures(readFileSync(DEFAULT_README, 'utf8'), BROWSER_BEGIN, BROWSER_END);
    expect(current, `README.md needs a ${BROWSER_BEGIN} … ${BROWSER_END} section`).not.toBeNull();
    expect(current).toBe(renderBrowserFigures(doc));
  });
});

/** A results document with engines, scenes and ratios the generator has never seen. */
function syntheticDoc() {
  const ok = (scene, engine, ms, quality) => ({
    scene, engine, status: 'ok', medianMs: ms, minMs: ms * 0.9, maxMs: ms * 1.1, quality,
    runs: [{ status: 'ok', medianMs: ms }, { status: 'ok', medianMs: ms }],
  });
  return {
    mode: 'full',
    date: '2030-01-02T03:04:05.678Z',
    machine: { cpu: 'Test CPU', cores: 4, node: 'v99' },
    git: { commit: 'abcdef0123456789', physicsDirty: false },
    protocol: { repetitions: 2, warmupSteps: 10, timedSteps: 20 },
    config: { engines: ['fulcrum', 'rapier', 'rapier-simd'], scenes: ['A', 'J', 'K', 'K-user', 'K-symbolic'] },
    scenes: { A: { title: 'pyramid' }, J: { title: 'new shared scene' }, K: { title: 'reference' }, 'K-user': { title: 'user variant' }, 'K-symbolic': { title: 'symbolic variant' } },
    engines: { fulcrum: { label: 'Fulcrum', version: '1' }, rapier: { label: 'Rapier', version: '2' }, 'rapier-simd': { label: 'Rapier SIMD', version: '3' } },
    results: [
      ok('A', 'fulcrum', 0.5, { topDx: 0, topDy: -0.03, stands: true }),
      ok('A', 'rapier', 1, { topDx: 0, topDy: -0.04, stands: true }),
      ok('A', 'rapier-simd', 0.75, { topDx: 0, topDy: -2, stands: false }),
      ok('J', 'fulcrum', 2, { worstSeparation: 0.01 }),
      { scene: 'J', engine: 'rapier', status: 'failed', message: 'timed out after 300 s' },
      ok('J', 'rapier-simd', 3, { worstSeparation: 0.02, newMeasure: 5 }),
      ok('K', 'fulcrum', 1, { worstSeparation: 0.1 }),
      ok('K-user', 'fulcrum', 1.2, { worstSeparation: 0.1 }),
      ok('K-symbolic', 'fulcrum', 1.4, { worstSeparation: 0.1 }),
    ],
    ratios: { A: { rapier: 2, 'rapier-simd': 1.5 }, J: { rapier: null, 'rapier-simd': 1.5 } },
    fulcrumRatios: {
      'K-user': { reference: 'K', perRepetition: [1.2, 1.25], median: 1.225, min: 1.2, max: 1.25 },
      'K-symbolic': { reference: 'K', perRepetition: [1.4, 1.45], median: 1.425, min: 1.4, max: 1.45 },
    },
  };
}

describe('renderFigures', () => {
  it('takes its rows and columns from the JSON, whatever the engines and scenes', () => {
    const md = renderFigures(syntheticDoc());
    expect(md).toContain('| scene | Fulcrum | Rapier | Rapier SIMD |');
    expect(md).toContain('| A: pyramid | 0.500 [0.450–0.550] | 1.00 [0.900–1.10] | 0.750 [0.675–0.825] |');
    expect(md).toContain('| J: new shared scene | 2.00 [1.80–2.20] | failed | 3.00 [2.70–3.30] |');
    expect(md).toContain('| A | 2.00× | 1.50× | 1.50× (Rapier SIMD) |');
    expect(md).toContain('| J | – | 1.50× | 1.50× (Rapier SIMD) |');
    expect(md).toContain('| A | Δy −0.0300, stands | Δy −0.0400, stands | Δy −2.000, falls |');
    expect(md).toContain('0.0200 m; newMeasure 5.000');
    expect(md).toContain('| K-user: user variant | Fulcrum | 1.20 [1.08–1.32] | 0.100 m |');
    expect(md).toContain('| K-user ÷ K | 1.23× [1.20–1.25] | 1.20, 1.25 |');
    expect(md).toContain('| K-symbolic ÷ K | 1.43× [1.40–1.45] | 1.40, 1.45 |');
    expect(md).toContain('git abcdef0');
    expect(md).toContain('2030-01-02 03:04 UTC');
    expect(md).toContain('Rapier SIMD 3');
    expect(md).toContain('- J Rapier: failed, timed out after 300 s');
  });

  it('shows an escape count and a mean speed as such (scene L)', () => {
    const doc = syntheticDoc();
    doc.config.scenes.push('L');
    doc.scenes.L = { title: 'fast bodies' };
    doc.results.push({ scene: 'L', engine: 'fulcrum', status: 'ok', medianMs: 4, minMs: 4, maxMs: 4, quality: { escaped: 0, meanSpeed: 4.956 }, runs: [{ status: 'ok', medianMs: 4 }] });
    expect(renderFigures(doc)).toContain('| L: fast bodies | Fulcrum | 4.00 | 0 escaped; mean speed 4.96 m/s |');
  });

  it('shows the pyramids standing and the worst top displacements as such (scene M)', () => {
    const doc = syntheticDoc();
    doc.config.scenes.push('M');
    doc.scenes.M = { title: 'many pyramids' };
    const q = { pyramids: 400, standing: 399, worstTopDx: 0.0004, worstTopDy: -0.0078 };
    doc.results.push({ scene: 'M', engine: 'fulcrum', status: 'ok', medianMs: 70, minMs: 70, maxMs: 70, quality: q, runs: [{ status: 'ok', medianMs: 70 }] });
    doc.results.push({ scene: 'M', engine: 'rapier', status: 'ok', medianMs: 65, minMs: 65, maxMs: 65, quality: { ...q, standing: 400 }, runs: [{ status: 'ok', medianMs: 65 }] });
    const md = renderFigures(doc);
    expect(md).toContain('| M | 399/400 stand; worst Δy −0.0078; worst Δx +4.0e-4 | 400/400 stand; worst Δy −0.0078; worst Δx +4.0e-4 |');
  });

  it('replaces only the text between the markers', () => {
    const readme = `# x\n\nbefore\n\n${BEGIN}\nold\n${END}\n\nafter\n`;
    const next = replaceFigures(readme, 'new');
    expect(next).toBe(`# x\n\nbefore\n\n${BEGIN}\nnew\n${END}\n\nafter\n`);
    expect(extractFigures(next)).toBe('new');
    expect(() => replaceFigures('# no markers', 'x')).toThrow(/figures:begin/);
  });
});
