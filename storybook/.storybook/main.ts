import type { StorybookConfig } from '@storybook/react-vite';
import { defaultClientConditions } from 'vite';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  core: {
    disableTelemetry: true,
    disableWhatsNewNotifications: true,
  },
  // Read the workspace packages' TypeScript source (the "@fulcrum/source" export condition),
  // so neither `storybook dev` nor `storybook build` needs the packages built first.
  viteFinal(viteConfig) {
    viteConfig.resolve ??= {};
    viteConfig.resolve.conditions = ['@fulcrum/source', ...defaultClientConditions];
    return viteConfig;
  },
};

export default config;
