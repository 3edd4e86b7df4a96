/**
 * Test helpers: grab the Space and the API of the enclosing <Physics> from outside React.
 */
import type { Space } from '@fulcrum/physics';
import type { ReactNode } from 'react';
import { usePhysics, type PhysicsApi } from '../hooks/hooks.js';

export interface Probe {
  api: PhysicsApi | null;
  readonly space: Space;
}

export function makeProbe(): Probe & { Component: () => ReactNode } {
  const probe = {
    api: null as PhysicsApi | null,
    get space(): Space {
      if (!probe.api) throw new Error('probe not mounted');
      return probe.api.space;
    },
    Component(): ReactNode {
      probe.api = usePhysics();
      return null;
    },
  };
  return probe;
}
