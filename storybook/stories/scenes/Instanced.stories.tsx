import { setProbe } from '@fulcrum/browser-testing/probe';
import { Body, Box, InstancedBodies, useSpace, type InstanceProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useMemo } from 'react';
import { range } from '../support/controls';
import { bodyColors } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { FrameTimings } from './frame-timings';
import { describeWorkers } from '../support/workers-status';

interface Controls {
  count: number;
  restitution: number;
  /** Worker threads beside the page's thread (the space's `workers`). */
  workers: number;
}

const WIDTH = 44;
const SIZE = 0.3;

const readout = createReadout('instanced-workers');

/**
 * What the `workers` arg (the frame's <Physics workers>, .storybook/preview.tsx) did: the readout
 * under the canvas says how many workers run, or why none do, as in the Workers story; the probe
 * gets the same (`workersRunning`, `workersReason`, `crossOriginIsolated`), for the browser
 * benchmark. Nothing here runs per step or per frame: the status is written when the workers
 * have started.
 */
function WorkersStatus({ workers }: { workers: number }) {
  const space = useSpace();
  useEffect(() => {
    let current = true;
    const show = () => {
      if (!current) return;
      const p = space.parallel;
      const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
      readout.set(`${describeWorkers(p)} · cross-origin isolated: ${isolated ? 'yes' : 'no'}`);
      setProbe({ workersRequested: p.requested, workersRunning: p.workers, workersReason: p.reason, crossOriginIsolated: isolated });
    };
    show();
    void space.workersReady.then(show);
    return () => {
      current = false;
    };
  }, [space, workers]);
  return null;
}

/** `count` small boxes, drawn by one InstancedMesh, dropped into a wide tray. */
function InstancedScene({ count, restitution, workers }: Controls) {
  const instances = useMemo<InstanceProps[]>(() => {
    const perRow = Math.floor((WIDTH - 2) / (SIZE * 1.5));
    return Array.from({ length: count }, (_, i) => ({
      position: [-(WIDTH - 2) / 2 + (i % perRow) * SIZE * 1.5 + (Math.floor(i / perRow) % 2) * 0.1, -6 + Math.floor(i / perRow) * SIZE * 1.4] as [number, number],
      rotation: (i * 0.37) % 1,
      // The tests drag the last box, which lands on top of the pile.
      ...(i === count - 1 ? { userData: { dragHandle: true } } : {}),
    }));
  }, [count]);
  return (
    <>
      <Body type="static" position={[0, -8]}>
        <Box width={WIDTH + 1} height={1} friction={0.9} />
        <Box width={1} height={6} offset={[-(WIDTH + 1) / 2, 3]} />
        <Box width={1} height={6} offset={[(WIDTH + 1) / 2, 3]} />
      </Body>
      <InstancedBodies instances={instances} linearDrag={0.5} angularDrag={1}>
        <Box width={SIZE} height={SIZE} friction={0.9} restitution={restitution} />
        <meshBasicMaterial color={bodyColors.dynamic} />
      </InstancedBodies>
      <FrameTimings />
      <WorkersStatus workers={workers} />
    </>
  );
}

const meta = {
  title: 'Scenes/Instanced bodies',
  component: InstancedScene,
  tags: ['settles', 'heavy'],
  args: { count: 2000, restitution: 0, workers: 0 },
  argTypes: {
    count: range(100, 4000, 100),
    restitution: range(0, 1, 0.05),
    workers: { ...range(0, 4, 1), description: "Worker threads beside the page's thread (`<Physics workers>`; needs a cross-origin-isolated page)." },
  },
  parameters: { fulcrum: { zoom: 17, center: [0, -1], panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof InstancedScene>;

export default meta;

/**
 * 2000 boxes in one `<InstancedBodies>`; `count` adds or removes instances by key, `workers`
 * steps them with worker threads (the browser benchmark runs it at 0, 1 and 2).
 */
export const TwoThousandBoxes: StoryObj<typeof meta> = {};
