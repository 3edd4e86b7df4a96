/**
 * The pool story shows fluids as a user sees them: once at rest, each body floats with the share
 * of its area under water that its density says (density / the water's), the dense block lies on
 * the bottom; a denser water (a control change) floats them higher.
 */
import { waitForProbe } from '@fulcrum/browser-testing';
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory, sceneProbe, updateStoryArgs, waitForRest } from './storybook-page';

const ID = 'scenes-pool--floating-boxes';
const READING = /water ρ ([\d.]+) · light box ρ 0\.5: (\d+)% under · ball ρ 1: (\d+)% under · box ρ 1\.5: (\d+)% under · block ρ 5: (\d+)% under(, on the bottom)?/;

const story = openedStory(ID);

/** The readings at rest in water of `density`: each floater within 5 points of 100·ρ/density %, the block on the bottom. */
async function expectFloating(density: number) {
  const m = await waitForReadout(story.opened.page, 'pool-readings', READING, (m) => Number(m[1]) === density);
  const shares = { light: Number(m[2]), ball: Number(m[3]), box: Number(m[4]) };
  for (const [name, rho] of [['light', 0.5], ['ball', 1], ['box', 1.5]] as const) {
    expect(Math.abs(shares[name] - (100 * rho) / density), `${name} (ρ ${rho}): ${shares[name]}% under`).toBeLessThanOrEqual(5);
  }
  expect(Number(m[5]), 'the block is under water').toBe(100);
  expect(m[6], 'the block is on the bottom').toBeTruthy();
}

it('in water of density 2, bodies of density 0.5, 1 and 1.5 float 25%, 50% and 75% under; the block of 5 sinks', async () => {
  await waitForRest(story.opened, 90_000);
  await expectFloating(2);
  story.opened.assertNoErrors(ID);
});

it('in water of density 4 they float higher: 12.5%, 25%, 37.5% under; the block still sinks', async () => {
  const before = await sceneProbe(story.opened);
  await updateStoryArgs(story.opened, ID, { fluidDensity: 4 });
  // The setter wakes what is in the water; then it settles again.
  await waitForProbe(story.opened.page, (p, frames) => p.frames > frames && (p.awakeBodies as number) > 0, { arg: before.frames, timeout: 30_000 });
  await waitForRest(story.opened, 90_000);
  await expectFloating(4);
  story.opened.assertNoErrors(ID);
});
