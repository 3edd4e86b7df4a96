/**
 * The one palette of the Storybook: the page around the canvas (toolbar, captions, the Storybook
 * theme in .storybook/theme.ts) and the bodies in it. Bodies that draw themselves take their
 * type's colour from the engine's debug palette (DebugColors, through @fulcrum/react's default
 * look); a story gives a body its own colour only to single it out, and then picks it from
 * `accent` below, so the same role has the same colour in every story.
 */
import { DebugColors } from '@fulcrum/physics';

/** CSS colours of the page: canvas, toolbar, captions, code. */
export const ui = {
  /** The canvas background, and the Storybook's page background. */
  canvas: '#1b1d23',
  /** The toolbar above the canvas and the captions under it. */
  surface: '#23262e',
  /** Text fields and code inside a surface. */
  inset: '#15171c',
  border: '#343843',
  text: '#dddddd',
  muted: '#9aa0ad',
  /** Links, focus, the brand: the colour the debug view draws constraints in. */
  accent: '#40e0e0',
  ok: '#8fd18f',
  error: '#ff8a80',
} as const;

/** Fonts of the page. */
export const fonts = {
  base: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  code: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
} as const;

/** Body colours by type (0xRRGGBB, as the shape components' `color` takes them): the engine's. */
export const bodyColors = {
  dynamic: DebugColors.dynamic,
  static: DebugColors.static,
  kinematic: DebugColors.kinematic,
  sensor: DebugColors.sensor,
  sleeping: DebugColors.sleeping,
  constraint: DebugColors.constraint,
} as const;

/** Colours for the bodies a story singles out, by role (0xRRGGBB). */
export const accent = {
  /** The body the scene is about (a crate, a car's load, a ball on terrain). */
  subject: 0xf2a33a,
  /** A second shade of the subject (the other half of a shape, a heavier item). */
  subjectDark: 0xe07b39,
  /** Projectiles: balls thrown, fired or dropped. */
  projectile: 0xe05555,
  /** A second kind of subject, told apart from the first (the other box, the other team). */
  contrast: 0x5b7fd6,
  /** Machinery that is neither ground nor subject: belts, rails, platforms. */
  machine: 0x6b7080,
  /** Water and other fluids. */
  fluid: 0x3a7bd5,
} as const;

/** `0xRRGGBB` as a CSS colour. */
export function css(color: number): string {
  return `#${color.toString(16).padStart(6, '0')}`;
}
