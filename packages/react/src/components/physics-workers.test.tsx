import { availableParallelism } from 'node:os';
import { Body as EngineBody, Space } from '@fulcrum/physics';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Box } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { expectPropError } from '../test-support/render-error.js';
import { Body } from './Body.js';
import { Physics } from './Physics.js';

afterEach(cleanup);

/** A 30-row pyramid (enough contacts for the workers to take part), and its bodies' refs. */
function Pyramid({ refs }: { refs: ReturnType<typeof createRef<EngineBody>>[] }) {
  const boxes = [];
  let k = 0;
  for (let row = 0; row < 30; row++) {
    for (let i = 0; i < 30 - row; i++) {
      const ref = (refs[k] ??= createRef<EngineBody>());
      boxes.push(
        <Body key={k++} ref={ref} position={[i - (29 - row) / 2, 0.5 + row]}>
          <Box width={1} height={1} />
        </Body>,
      );
    }
  }
  return (
    <>
      <Body type="static" position={[0, -0.5]}>
        <Box width={100} height={1} />
      </Body>
      {boxes}
    </>
  );
}

const poses = (refs: ReturnType<typeof createRef<EngineBody>>[]) => refs.map((r) => [r.current!.x, r.current!.y, r.current!.rotation]);

/** The workers a space starts of `n` here: at most one fewer than the cores (the calling thread takes a share). */
const started = (n: number) => Math.min(n, availableParallelism() - 1);

describe('<Physics workers>', () => {
  it('starts the workers (under StrictMode too), steps bitwise as without them, and ends them on unmount', async () => {
    const run = async (workers: number) => {
      const probe = makeProbe();
      const refs: ReturnType<typeof createRef<EngineBody>>[] = [];
      const view = render(
        <StrictMode>
          <Physics gravity={[0, -10]} workers={workers} allowSleep={false}>
            <probe.Component />
            <Pyramid refs={refs} />
          </Physics>
        </StrictMode>,
      );
      const space = probe.space;
      await space.workersReady;
      expect(space.parallel.workers).toBe(started(workers));
      for (let i = 0; i < 120; i++) probe.api!.step();
      const result = poses(refs);
      view.unmount();
      return { result, space };
    };
    const alone = await run(0);
    const withWorkers = await run(2);
    expect(withWorkers.result).toEqual(alone.result);
    expect(withWorkers.space.parallel).toEqual({ requested: 2, workers: 0, reason: 'the space was disposed' });
  }, 60_000);

  it('changes the count in place through the setter, and applies it to a given space', async () => {
    const probe = makeProbe();
    const scene = (workers: number) => (
      <Physics workers={workers}>
        <probe.Component />
      </Physics>
    );
    const { rerender } = render(scene(1));
    const space = probe.space;
    await space.workersReady;
    expect(space.parallel.workers).toBe(started(1));
    rerender(scene(2));
    expect(probe.space).toBe(space);
    expect(await space.workersReady).toMatchObject({ requested: 2, workers: started(2) });
    const given = new Space();
    rerender(
      <Physics space={given} workers={1}>
        <probe.Component />
      </Physics>,
    );
    expect((await given.workersReady).workers).toBe(started(1));
    given.dispose();
  });

  it('rejects a count that is not a whole number from 0, naming the prop and the value', () => {
    expectPropError(<Physics workers={-1} />, /^<Physics> prop workers=\{-1\} is invalid: .*whole number/);
    expectPropError(<Physics workers={1.5} />, /^<Physics> prop workers=\{1\.5\} is invalid/);
    expectPropError(<Physics workers={'2' as never} />, /^<Physics> prop workers=\{"2"\} is invalid/);
  });
});
