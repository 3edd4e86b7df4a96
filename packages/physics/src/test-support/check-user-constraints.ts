/**
 * Vitest setup: every space the tests make checks its user constraints' derivatives
 * (Space.checkUserConstraints), unless a test says otherwise.
 */
import { settingDefaults } from '../space/settings.js';

settingDefaults.checkUserConstraints = true;
