/** The README section generator, on a results document of made-up sizes. */
import { describe, expect, it } from 'vitest';
import { lowestVersion } from './lowest-versions.mjs';
import { BEGIN, END, extractSection, readmeDrift, renderSection, replaceSection } from './readme-section.mjs';

const RESULTS = {
  supported: { react: '^19.0.0', '@react-three/fiber': '^9.0.1', three: '>=0.156.0' },
  installed: { react: '19.0.0', '@react-three/fiber': '9.0.1', three: '0.156.0', vite: '8.0.0' },
  variants: {
    baseline: { minifiedBytes: 900_000, gzipBytes: 250_000 },
    core: { minifiedBytes: 1_100_000, gzipBytes: 320_000 },
    symbolic: { minifiedBytes: 1_220_000, gzipBytes: 360_000 },
  },
};
const readmeWith = (section) => `# Title\n\ntext\n\n${BEGIN}\n${section}\n${END}\n\n## Next\n`;
/** RESULTS with the core variant's gzip size scaled by `factor`. */
const coreGzipTimes = (factor) => ({ ...RESULTS, variants: { ...RESULTS.variants, core: { ...RESULTS.variants.core, gzipBytes: RESULTS.variants.core.gzipBytes * factor } } });

describe('the README section', () => {
  it('has the supported and installed versions, and each variant\'s sizes with what it adds', () => {
    const md = renderSection(RESULTS);
    expect(md).toContain('`react` ^19.0.0');
    expect(md).toContain('react-three-fiber 9.0.1');
    expect(md).toContain('| 900 kB | 250 kB |');
    expect(md).toContain('| 1,100 kB (+200) | 320 kB (+70) |');
    expect(md).toContain('| 1,220 kB (+120) | 360 kB (+40) |');
  });

  it('replaces only the text between the markers', () => {
    const readme = replaceSection(readmeWith('old'), 'new');
    expect(readme).toBe(readmeWith('new'));
    expect(extractSection(readme)).toBe('new');
    expect(() => replaceSection('# no markers', 'x')).toThrow(/consumer-test:begin/);
  });

  it('drifts when a size is more than 2 % off, or any other text differs', () => {
    const readme = readmeWith(renderSection(RESULTS));
    expect(readmeDrift(readme, RESULTS)).toEqual([]);
    expect(readmeDrift(readme, coreGzipTimes(1.01))).toEqual([]);
    expect(readmeDrift(readme, coreGzipTimes(1.05))).toEqual(['the README says 320 kB where the results say 336 kB']);
    expect(readmeDrift(readme, { ...RESULTS, installed: { ...RESULTS.installed, react: '19.1.0' } })).toHaveLength(1);
    expect(readmeDrift('# no section', RESULTS)).toHaveLength(1);
  });
});

describe('lowestVersion', () => {
  it('reads the plain range forms, and rejects the others', () => {
    expect(['^19.0.0', '~19.0.0', '>=19.0.0', '19.0.0'].map(lowestVersion)).toEqual(['19.0.0', '19.0.0', '19.0.0', '19.0.0']);
    for (const range of ['^19', '*', '>=18 <20', '^18.0.0 || ^19.0.0']) expect(() => lowestVersion(range)).toThrow(/range must be/);
  });
});
