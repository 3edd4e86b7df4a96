/** The stories at places 3, 7, 11, … in index.json (see stories-1.test.ts). */
import { describeStories } from './story-checks';
import { listStories, storiesInQuarter } from './storybook-page';

describeStories(storiesInQuarter(listStories(), 3));
