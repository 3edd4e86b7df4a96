import type { Decorator, Preview } from '@storybook/react-vite';
import { useArgs } from 'storybook/preview-api';
import { setProbe } from '@fulcrum/browser-testing/probe';
import type { FulcrumParameters } from '../stories/support/parameters';
import { StoryFrame } from '../stories/support/StoryFrame';
import { fulcrumTheme } from './theme';
import '../docs/support/docs.css';

/** Every story renders inside StoryFrame: canvas, <Physics dragging>, debug toggle, reset. */
const withStoryFrame: Decorator = (Story, context) => {
  const [args, updateArgs] = useArgs();
  const fulcrum = (context.parameters.fulcrum ?? {}) as FulcrumParameters;
  const Panel = fulcrum.panel;
  // For the browser tests: which control change a joint story should react to.
  setProbe({ controlChange: fulcrum.controlChange ?? null, dragBy: fulcrum.dragBy ?? [60, -100] });
  return (
    <StoryFrame
      // A story's `workers` arg, where it has one, is <Physics workers> (Scenes/Instanced bodies).
      settings={typeof args.workers === 'number' ? { ...fulcrum, workers: args.workers } : fulcrum}
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
    docs: {
      theme: fulcrumTheme,
      // A demo's generated source would be the story's scene component, which is not what a
      // user writes: each docs page shows the copyable JSX of the demo's essentials instead.
      canvas: { sourceState: 'none' },
      codePanel: false,
    },
    options: {
      // The sidebar: how to start, the reference, the joints' mathematics, how-tos, then the
      // scenes. Inside a joint, its docs page comes before its story (same title: index order).
      storySort: {
        order: [
          'Getting started',
          'Components',
          ['Physics', 'Body', 'Shapes', ['Box', 'Circle', 'Polygon', 'Capsule', 'Segment'], 'Joints', ['PivotJoint', 'WeldJoint', 'AngleJoint', 'DistanceJoint', 'LineJoint', 'MotorJoint', 'PulleyJoint', 'UserConstraint', 'SymbolicConstraint'], 'InstancedBodies', 'DebugLines', 'PointerDrag'],
          'Joints',
          ['Pivot', 'Weld', 'Angle', 'Angle ratchet', 'Distance', 'Line', 'Motor', 'Pulley', 'UserConstraint', 'SymbolicConstraint'],
          'Recipes',
          ['First scene', 'Revolute joint', 'Rope', 'Spring', 'Car suspension', 'Ragdoll', 'Sensor goal', 'Keyboard control', 'UserConstraint walkthrough', 'SymbolicConstraint walkthrough'],
          'Scenes',
        ],
      },
    },
  },
};

export default preview;
