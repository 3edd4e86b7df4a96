/**
 * The sensor-goal recipe counts what it says: each ball that rolls into the goal's sensor is
 * counted once, from the goal's onBeginContact, and a ball added through the control scores too.
 */
import { expect, it } from 'vitest';
import { readout, waitForReadout } from './readout';
import { openedStory, updateStoryArgs } from './storybook-page';

const ID = 'recipes-sensor-goal--three-balls';
const GOALS = /^goals: (\d+)$/;

const story = openedStory(ID);

it('the three balls score three goals, each once', async () => {
  const page = story.opened.page;
  expect(await readout(page, 'goal-count')).toBe('goals: 0');
  await waitForReadout(page, 'goal-count', GOALS, (m) => Number(m[1]) === 3);
  // They stay in the sensor: a second begin contact for the same ball would not count again,
  // and no fourth goal appears from nowhere.
  await page.waitForTimeout(3000);
  expect(await readout(page, 'goal-count')).toBe('goals: 3');
  story.opened.assertNoErrors(ID);
});

it('a fourth ball, added through the control, scores the fourth goal', async () => {
  await updateStoryArgs(story.opened, ID, { balls: 4 });
  await waitForReadout(story.opened.page, 'goal-count', GOALS, (m) => Number(m[1]) === 4);
  story.opened.assertNoErrors(ID);
});
