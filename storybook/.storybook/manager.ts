import { addons } from 'storybook/manager-api';
import { fulcrumTheme } from './theme';

addons.setConfig({
  theme: fulcrumTheme,
  // The docs pages and scenes are the site; the addon panel (controls) opens with a story.
  sidebar: { showRoots: true },
});
