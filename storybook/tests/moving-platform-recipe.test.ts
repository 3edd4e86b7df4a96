/**
 * The moving-platform recipe: a kinematic body driven by its `target` prop travels and carries a
 * crate by friction, which stays on it and barely slips.
 */
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory } from './storybook-page';

const ID = 'recipes-moving-platform--carried';
const READ = /^platform x (-?[\d.]+) m; crate (on it|off it), slipped ([\d.]+) m$/;
const story = openedStory(ID);

it('the platform travels, and the crate rides on it without slipping off', async () => {
  const page = story.opened.page;
  // From x −4 over to beyond +3 (amplitude 4 m), with the crate still on it.
  const far = await waitForReadout(page, 'moving-platform-target', READ, (m) => Number(m[1]) > 3, 30_000);
  expect(far[2]).toBe('on it');
  expect(Number(far[3])).toBeLessThan(0.2);
  // And back the other way.
  const back = await waitForReadout(page, 'moving-platform-target', READ, (m) => Number(m[1]) < -3, 30_000);
  expect(back[2]).toBe('on it');
  expect(Number(back[3])).toBeLessThan(0.3);
  story.opened.assertNoErrors(ID);
});
