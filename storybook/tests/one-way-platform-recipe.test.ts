/**
 * The one-way platform recipe does what it says: the balls thrown up from the floor pass through
 * the platform (a `oneWay` Box) and come to rest on top of it.
 */
import { expect, it } from 'vitest';
import { waitForReadout, readout } from './readout';
import { openedStory } from './storybook-page';

const ID = 'recipes-one-way-platform--three-balls';
const story = openedStory(ID);

it('the three balls pass up through the platform and rest on it', async () => {
  const page = story.opened.page;
  await waitForReadout(page, 'one-way', /^on the platform: (\d) of 3$/, (m) => m[1] === '3', 60_000);
  await page.waitForTimeout(2000);
  expect(await readout(page, 'one-way')).toBe('on the platform: 3 of 3');
  story.opened.assertNoErrors(ID);
});
