/** The stories at places 2, 6, 10, … in index.json (see stories-1.test.ts). */
import { describeStories } from './story-checks';
import { listStories, storiesInQuarter } from './storybook-page';

describeStories(storiesInQuarter(listStories(), 2));
