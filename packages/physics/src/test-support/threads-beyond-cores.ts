/**
 * Vitest setup: a space's pool starts every worker a test asks for, whatever the machine's cores
 * (a pool normally starts at most one fewer than the cores: parallel/worker-pool.ts,
 * workersToStart). The tests run two and three workers on a two-core machine on purpose: threads
 * descheduled mid-stage are how a race shows. parallel-step.test.ts checks the usual cap.
 */
import { WorkerPool } from '../parallel/worker-pool.js';

export const TEST_CORES = 64;
WorkerPool.defaults = { ...WorkerPool.defaults, cores: TEST_CORES };
