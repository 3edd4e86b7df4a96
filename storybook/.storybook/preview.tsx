import type { Decorator, Preview } from '@storybook/react-vite';
import { useArgs } from 'storybook/preview-api';
import { setProbe } from '@fulcrum/browser-testing/probe';
import type { FulcrumParameters } from '../stories/support/parameters';
import { StoryFrame } from '../stories/support/StoryFrame';

/** Every story renders inside StoryFrame: canvas, <Physics dragging>, debug toggle, reset. */
const withStoryFrame: Decorator = (Story, context) => {
  const [args, updateArgs] = useArgs();
  const fulcrum = (context.parameters.fulcrum ?? {}) as FulcrumParameters;
  const Panel = fulcrum.panel;
  // For the browser tests: which control change a joint story should react to.
  setProbe({ controlChange: fulcrum.controlChange ?? null, dragBy: fulcrum.dragBy ?? [60, -100] });
  return (
    <StoryFrame
      settings={fulcrum}
      debugInitially={fulcrum.debug}
      storyId={context.id}
      panel={Panel ? <Panel args={args} updateArgs={updateArgs} /> : null}
    >
      <Story />
    </StoryFrame>
  );
};

const preview: Preview = {
  decorators: [withStoryFrame],
  parameters: {
    layout: 'centered',
    controls: { expanded: true },
  },
};

export default preview;
