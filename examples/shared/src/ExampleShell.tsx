/**
 * <ExampleShell>: the page around an example: a header with the title and instructions, a
 * toolbar, and the stage that holds the canvas and the overlay.
 */
import type { ReactNode } from 'react';

export interface ExampleShellProps {
  title: string;
  /** One or two sentences: what to do. */
  instructions: ReactNode;
  /** Buttons and sliders. */
  controls?: ReactNode;
  /** Drawn over the stage's top-right corner (the stats overlay). */
  overlay?: ReactNode;
  /** The <Canvas>. */
  children: ReactNode;
}

export function ExampleShell({ title, instructions, controls, overlay, children }: ExampleShellProps): ReactNode {
  return (
    <div className="shell">
      <header>
        <h1>{title}</h1>
        <p className="instructions">{instructions}</p>
      </header>
      {controls ? <div className="controls">{controls}</div> : null}
      <main className="stage">
        {children}
        {overlay}
      </main>
    </div>
  );
}
