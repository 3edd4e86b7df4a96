import type { StorybookConfig } from '@storybook/react-vite';
import { defaultClientConditions } from 'vite';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  // The MDX pages first: the sidebar order itself is set in preview.tsx (options.storySort).
  stories: ['../docs/**/*.mdx', '../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs'],
  core: {
    disableTelemetry: true,
    disableWhatsNewNotifications: true,
  },
  // The docs site is for Fulcrum's users, not for Storybook's: no onboarding checklist in the
  // sidebar or guide in the menu, and no "new and modified stories" markers from git.
  features: {
    sidebarOnboardingChecklist: false,
    menuOnboardingChecklist: false,
    changeDetection: false,
  },
  typescript: {
    // Props tables from the components' TypeScript types and TSDoc. react-docgen-typescript runs
    // the TypeScript compiler, so it follows the types into @fulcrum/physics (a joint's props are
    // the engine's options type, TSDoc included); react-docgen would not.
    reactDocgen: 'react-docgen-typescript',
    reactDocgenTypescriptOptions: {
      // The components' source (tsconfig.docgen.json resolves @fulcrum/* through the
      // "@fulcrum/source" condition), not the stories; and the joints' typed re-exports (see
      // docs/support/joint-components.tsx for why).
      tsconfigPath: './tsconfig.docgen.json',
      // Globbed from storybook/ (where Storybook runs), and matched against the module ids Vite
      // transforms.
      include: ['../packages/react/src/**/*.tsx', 'docs/support/joint-components.tsx'],
      exclude: ['**/*.test.tsx'],
      shouldExtractLiteralValuesFromEnum: true,
      shouldRemoveUndefinedFromOptional: true,
      // Props declared in node_modules (React's, three.js's) are not Fulcrum's to document.
      propFilter: (prop) => !prop.parent?.fileName.includes('node_modules'),
    },
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
