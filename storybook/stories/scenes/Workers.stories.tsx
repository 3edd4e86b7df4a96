import { Body, Box, useAfterStep, useSpace } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect } from 'react';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { accent } from '../support/palette';
import { DRAG_HANDLE } from '../support/scenery';
import { describeWorkers } from '../support/workers-status';

const ROWS = 40;
const SIZE = 0.25;

const readout = createReadout('workers-readings');

/**
 * A 40-row pyramid (820 boxes, some 1,600 contact rows) stepped with `<Physics workers={2}>`:
 * the narrowphase's box pairs, the contact passes and the integration run on up to two Web Workers
 * beside the page's thread (the passes colour by colour), with the same result as on one thread;
 * at most one fewer than the machine's cores start, since the page's thread takes a share. The page is cross-origin isolated (the Storybook is served with
 * the COOP and COEP headers), which `SharedArrayBuffer` needs; the readout says how many
 * workers run, or why none do.
 */
function WorkersScene() {
  const space = useSpace();
  useLayoutEffect(() => readout.set(''), []);
  useAfterStep(() => {
    const p = space.parallel;
    const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
    readout.set(`${describeWorkers(p)} · cross-origin isolated: ${isolated ? 'yes' : 'no'} · steps: ${space.stepCount}`);
  });
  const boxes = [];
  for (let row = 0; row < ROWS; row++) {
    const n = ROWS - row;
    for (let i = 0; i < n; i++) {
      // The apex box is the one to drag: it rests from the start, and no dropped box lands on it
      // (a box in flight can leave the place where the pointer presses).
      boxes.push(
        <Body key={`${row}-${i}`} position={[(i - (n - 1) / 2) * SIZE, -4.5 + SIZE / 2 + row * SIZE]} userData={n === 1 ? DRAG_HANDLE : undefined}>
          <Box width={SIZE} height={SIZE} />
        </Body>,
      );
    }
  }
  return (
    <>
      {/* Wider than the view, so that a box knocked off the pile stays on the ground. */}
      <Body type="static" position={[0, -5]}>
        <Box width={40} height={1} />
      </Body>
      {boxes}
      {/* Dropped onto the pile's sides as the story opens, so that it moves. */}
      {[-2.4, -1.2, 2.4].map((x, i) => (
        <Body key={`drop-${i}`} position={[x, 4 + i]} rotation={0.4 * i}>
          <Box width={0.8} height={0.5} color={accent.projectile} />
        </Body>
      ))}
    </>
  );
}

const meta = {
  title: 'Scenes/Workers',
  component: WorkersScene,
  tags: ['heavy'],
  parameters: { fulcrum: { zoom: 40, center: [0, 0.2], workers: 2, dragBy: [100, 30], panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof WorkersScene>;

export default meta;

/** `<Physics workers={2}>` on a pile of 820 boxes. */
export const TwoWorkers: StoryObj<typeof meta> = {};
