// Marks the worker's result line on stdout, so that anything an engine prints cannot be taken for it.
export const RESULT_PREFIX = '@@fulcrum-bench-result@@';
