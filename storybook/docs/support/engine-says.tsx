/**
 * What the engine and the compiler answer to a mistake, computed on the page (not pasted): a
 * wrong hand-written Jacobian under checkUserConstraints, and a symbolic source with a typo. Each
 * runs in a throwaway Space and shows the error's message; an answer that is not an error is
 * shown as a failure, so the page cannot claim a check that did not happen.
 */
import { Body, Space, UserConstraint } from '@fulcrum/physics';
import { SymbolicConstraint } from '@fulcrum/symbolic';
import { Unstyled } from '@storybook/addon-docs/blocks';
import { useMemo, type ReactNode } from 'react';

/**
 * The bowl's C with the bead's y column of J given the wrong sign (−1 instead of +1). (The check
 * judges the columns of bodies that move: a static body's are never used.)
 */
function wrongJacobianMessage(): string {
  const k = 0.35;
  const space = new Space({ checkUserConstraints: true });
  const bottom = space.addBody(new Body({ type: 'static', position: [0, -3] }));
  const bead = space.addBody(new Body({ position: [-3, -3 + 9 * k], mass: 1, inertia: 1 }));
  space.addConstraint(
    new UserConstraint({
      dimensions: 1,
      bodies: [bottom, bead],
      hooks: {
        position(err) {
          const [b, p] = this.bodyList;
          const dx = p!.x - b!.x;
          err[0] = p!.y - b!.y - k * dx * dx;
        },
        jacobian(J) {
          const [b, p] = this.bodyList;
          const dx = p!.x - b!.x;
          J.set([2 * k * dx, -1, 0, -2 * k * dx, -1, 0]);
        },
      },
    }),
  );
  return firstError(() => space.step(1 / 60));
}

function firstError(run: () => void): string {
  try {
    run();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return 'no error: the check did not catch the mistake';
}

/** The message the step throws for a Jacobian whose sign is wrong. */
export function WrongJacobianError(): ReactNode {
  const message = useMemo(wrongJacobianMessage, []);
  return (
    <Unstyled>
      <pre className="fulcrum-engine-says" data-testid="wrong-jacobian-error">
        {message}
      </pre>
    </Unstyled>
  );
}

/** The compiler's message for `source`. */
export function CompileError({ source }: { source: string }): ReactNode {
  const message = useMemo(() => firstError(() => void new SymbolicConstraint(source)), [source]);
  return (
    <Unstyled>
      <pre className="fulcrum-engine-says" data-testid="compile-error">
        {message}
      </pre>
    </Unstyled>
  );
}
