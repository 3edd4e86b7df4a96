/**
 * The one-way platforms story shows the preSolve rule as a user sees it: every ball thrown up
 * from the floor goes up through a platform, and comes down to rest on it.
 */
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory, waitForRest } from './storybook-page';

const ID = 'scenes-one-way-platforms--thrown-up-through';

const story = openedStory(ID);

it('all nine balls thrown up from below pass through a platform and rest on top of it', async () => {
  // Nine throws 0.4 s apart, then a second or two to land: about 5.5 s.
  await waitForRest(story.opened, 60_000);
  const m = await waitForReadout(story.opened.page, 'one-way-readings', /thrown: (\d+) \/ 9 · went up through a platform: (\d+) · resting on a platform: (\d+)/);
  expect({ thrown: Number(m[1]), wentThrough: Number(m[2]), resting: Number(m[3]) }).toEqual({ thrown: 9, wentThrough: 9, resting: 9 });
  story.opened.assertNoErrors(ID);
});
