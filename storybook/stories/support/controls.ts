/**
 * Storybook controls (argTypes) for the joints' physical props. Every prop a joint component
 * takes is a live control: changing one re-renders the story, and @fulcrum/react applies it
 * through the engine's setter (same engine object, island woken, frame requested).
 */
import type { ArgTypes } from '@storybook/react-vite';

const range = (min: number, max: number, step: number) => ({ control: { type: 'range' as const, min, max, step } });

/** Nape's common constraint properties. Unset numbers mean the engine default. */
export const COMMON_CONSTRAINT_ARG_TYPES = {
  active: { control: 'boolean', description: 'An inactive constraint is skipped by the solver.' },
  stiff: { control: 'boolean', description: 'Rigid, or a spring with frequency and damping.' },
  frequency: { ...range(0.1, 30, 0.1), description: 'Spring frequency (Hz) when not stiff.' },
  damping: { ...range(0, 2, 0.05), description: 'Spring damping ratio when not stiff.' },
  maxForce: { control: { type: 'number', min: 0, step: 10 }, description: 'Force limit (N); unset = ∞. With breakUnderForce, the break threshold.' },
  maxError: { control: { type: 'number', min: 0, step: 0.1 }, description: 'Error corrected at once (m); unset = ∞. With breakUnderError, the break threshold.' },
  breakUnderForce: { control: 'boolean' },
  breakUnderError: { control: 'boolean' },
  removeOnBreak: { control: 'boolean', description: 'On breaking, leave the space (reset to rebuild) or only deactivate.' },
  ignore: { control: 'boolean', description: "The joint's bodies do not collide with each other." },
} satisfies ArgTypes;

/** A 2D vector prop (an anchor or a direction), edited as JSON `[x, y]`. */
export const vectorControl = (description: string) => ({ control: 'object' as const, description });

export const ANCHOR_ARG_TYPES = {
  anchor1: vectorControl('Anchor on body1, body-local [x, y] (m).'),
  anchor2: vectorControl('Anchor on body2, body-local [x, y] (m).'),
} satisfies ArgTypes;

export const limitArgTypes = (min: number, max: number, step: number) => ({
  jointMin: { ...range(min, max, step), description: 'Lower limit.' },
  jointMax: { ...range(min, max, step), description: 'Upper limit.' },
});

export { range };

/** Default values of the common props: the engine's, spelled out so the controls show them. */
export const COMMON_CONSTRAINT_ARGS = {
  active: true,
  stiff: true,
  frequency: 10,
  damping: 1,
  breakUnderForce: false,
  breakUnderError: false,
  removeOnBreak: true,
  ignore: false,
};
