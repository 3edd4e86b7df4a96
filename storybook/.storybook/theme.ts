/**
 * The Storybook's theme: the manager (sidebar, toolbar) and the docs pages, in the palette the
 * stories use (stories/support/palette.ts), so a docs page, its live demos and the story view
 * look like one site.
 */
import { create } from 'storybook/theming/create';
import { fonts, ui } from '../stories/support/palette';

export const fulcrumTheme = create({
  base: 'dark',
  brandTitle: 'Fulcrum',
  colorPrimary: ui.accent,
  colorSecondary: '#2bb5b5',
  appBg: ui.surface,
  appContentBg: ui.canvas,
  appPreviewBg: ui.canvas,
  appHoverBg: '#2c303a',
  appBorderColor: ui.border,
  appBorderRadius: 6,
  fontBase: fonts.base,
  fontCode: fonts.code,
  textColor: ui.text,
  textInverseColor: ui.canvas,
  textMutedColor: ui.muted,
  barBg: ui.surface,
  barTextColor: ui.muted,
  barHoverColor: ui.accent,
  barSelectedColor: ui.accent,
  buttonBg: '#2c303a',
  buttonBorder: ui.border,
  booleanBg: ui.inset,
  booleanSelectedBg: '#2c303a',
  inputBg: ui.inset,
  inputBorder: ui.border,
  inputTextColor: ui.text,
  inputBorderRadius: 4,
});
