/**
 * The joints' derivations as the docs pages read them (docs/support/joint-math.ts): every engine
 * file the pages use has a `Math (KaTeX):` block in its opening comment with C, V, J, K and Jᵀλ,
 * and KaTeX parses every formula (the pages render with throwOnError, so a typo would be an error
 * on the page). The browser test (docs.test.ts) then checks the rendered pages.
 */
import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { jointMath, openingComment, QUANTITIES, unicodeDerivation } from '../docs/support/joint-math';
import { JOINT_SOURCES } from '../docs/support/joint-sources';

describe.each(Object.entries(JOINT_SOURCES))('%s', (_name, { file, text }) => {
  it('has C, V, J, K and Jᵀλ in its Math (KaTeX) block, each a formula KaTeX renders', () => {
    const math = jointMath(text, file);
    expect(math.rows.map((r) => r.key)).toEqual(expect.arrayContaining([...QUANTITIES]));
    for (const row of math.rows) {
      expect(() => katex.renderToString(row.latex, { displayMode: true, throwOnError: true }), `${file}: ${row.key}`).not.toThrow();
    }
  });

  it('keeps the Unicode derivation for code readers, before the LaTeX', () => {
    const unicode = unicodeDerivation(jointMath(text, file));
    expect(unicode.length).toBeGreaterThan(200);
    expect(unicode).not.toContain('\\mathbf');
  });
});

describe('jointMath', () => {
  const source = (body: string) => `/**\n * A joint.\n *\n${body
    .split('\n')
    .map((l) => ` *${l ? ` ${l}` : ''}`)
    .join('\n')}\n */\nexport class A {}\n`;
  const FULL = 'Math (KaTeX):\n  C: C = a\n  V: V = b\n  J: J = \\begin{bmatrix} 1 \\\\\n     2 \\end{bmatrix}\n  K: K = c\n  Jᵀλ: \\Delta v = d';

  it('reads quantities and their continuation lines', () => {
    const math = jointMath(source(FULL), 'a.ts');
    expect(math.rows).toEqual([
      { key: 'C', latex: 'C = a' },
      { key: 'V', latex: 'V = b' },
      { key: 'J', latex: 'J = \\begin{bmatrix} 1 \\\\\n2 \\end{bmatrix}' },
      { key: 'K', latex: 'K = c' },
      { key: 'Jᵀλ', latex: '\\Delta v = d' },
    ]);
  });

  it('names the file when the block is missing, incomplete or malformed', () => {
    expect(() => jointMath(source('C = p2 − p1'), 'pivot-joint.ts')).toThrow(/pivot-joint\.ts: the opening comment has no "Math \(KaTeX\):" block/);
    expect(() => jointMath(source(FULL.replace('  K: K = c\n', '')), 'weld-joint.ts')).toThrow(/weld-joint\.ts: .* has no K$/);
    expect(() => jointMath(source(`${FULL}\nstray text`), 'line-joint.ts')).toThrow(/line-joint\.ts: .*"stray text"/);
    expect(() => openingComment('export const x = 1;', 'x.ts')).toThrow(/x\.ts: no opening/);
  });
});
