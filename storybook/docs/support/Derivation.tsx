/**
 * <Derivation joint="PivotJoint" />: the joint's C, V, J, K and Jᵀλ as mathematics (KaTeX),
 * read from the `Math (KaTeX):` block of its engine file's opening comment (joint-math.ts), and
 * under it the comment's Unicode derivation as the code has it. A formula KaTeX cannot parse
 * throws (throwOnError): a broken formula is an error on the page, which the docs tests catch.
 */
import { Unstyled } from '@storybook/addon-docs/blocks';
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { useMemo, type ReactNode } from 'react';
import { jointMath, unicodeDerivation, type MathRow } from './joint-math';
import { JOINT_SOURCES, type JointName } from './joint-sources';

/** What each quantity is, in words (the left column). */
const MEANING: Record<string, string> = {
  where: 'with',
  C: 'position error',
  V: 'velocity error',
  J: 'Jacobian',
  K: 'effective mass',
  'Jᵀλ': 'impulse',
};

/** Keys as mathematics. */
const SYMBOL: Record<string, string> = { C: 'C', V: 'V', J: 'J', K: 'K', 'Jᵀλ': 'J^{T}\\lambda' };

export interface DerivationProps {
  joint: JointName;
}

export function Derivation({ joint }: DerivationProps): ReactNode {
  const { file, text } = JOINT_SOURCES[joint];
  const math = useMemo(() => jointMath(text, file), [text, file]);
  // Unstyled: the docs pages' typography (line heights, table stripes) would disturb KaTeX's.
  return (
    <Unstyled>
      <div className="fulcrum-derivation">
        <table>
          <tbody>
            {math.rows.map((row) => (
              <MathLine key={row.key} row={row} />
            ))}
          </tbody>
        </table>
        <p className="fulcrum-derivation-source">
          From the opening comment of <code>{file}</code>, rendered as it is in the source. The same comment in the code's own notation:
        </p>
        <pre className="fulcrum-derivation-unicode">{unicodeDerivation(math)}</pre>
      </div>
    </Unstyled>
  );
}

function MathLine({ row }: { row: MathRow }): ReactNode {
  const formula = useMemo(() => katex.renderToString(row.latex, { displayMode: true, throwOnError: true }), [row.latex]);
  const symbol = SYMBOL[row.key];
  const label = useMemo(() => (symbol ? katex.renderToString(symbol, { throwOnError: true }) : null), [symbol]);
  return (
    <tr data-quantity={row.key}>
      <th scope="row">
        {label ? <span dangerouslySetInnerHTML={{ __html: label }} /> : null}
        <span className="fulcrum-derivation-meaning">{MEANING[row.key] ?? row.key}</span>
      </th>
      <td>
        <div className="fulcrum-derivation-formula" dangerouslySetInnerHTML={{ __html: formula }} />
      </td>
    </tr>
  );
}
