/**
 * Publishes the chassis position after every step: to the tests' probe (`window.__fulcrum.car`), and
 * to the overlay's speedometer line (DOM writes, no React render).
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { setProbe } from '@fulcrum/browser-testing/probe';
import { useAfterStep } from '@fulcrum/react';
import type { ReactNode, RefObject } from 'react';

export interface CarState {
  x: number;
  y: number;
  /** m/s along x. */
  speed: number;
  sleeping: boolean;
}

export function CarProbe({ chassis, speedOutput }: { chassis: RefObject<EngineBody | null>; speedOutput: RefObject<HTMLElement | null> }): ReactNode {
  useAfterStep(() => {
    const body = chassis.current;
    if (!body) return;
    const state: CarState = { x: body.x, y: body.y, speed: body.velocity.x, sleeping: body.isSleeping };
    setProbe({ car: state });
    const text = String(Math.round(state.speed * 3.6)); // String(-0) is "0"
    const el = speedOutput.current;
    if (el && el.textContent !== text) el.textContent = text;
  });
  return null;
}
