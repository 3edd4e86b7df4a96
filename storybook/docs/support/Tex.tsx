/**
 * <Tex>{'C = y - k x^2'}</Tex>: a formula written on a docs page (not a joint's: those come from
 * the engine's source, see Derivation.tsx), rendered with KaTeX; `display` for a block.
 */
import { Unstyled } from '@storybook/addon-docs/blocks';
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { useMemo, type ReactNode } from 'react';

export function Tex({ children, display = false }: { children: string; display?: boolean }): ReactNode {
  const html = useMemo(() => katex.renderToString(children, { displayMode: display, throwOnError: true }), [children, display]);
  // Unstyled: the docs pages' typography would disturb KaTeX's (as in Derivation.tsx).
  return display ? (
    <Unstyled>
      <div className="fulcrum-tex" dangerouslySetInnerHTML={{ __html: html }} />
    </Unstyled>
  ) : (
    <span className="fulcrum-tex" dangerouslySetInnerHTML={{ __html: html }} />
  );
}
