/**
 * The parallel step's control block: one Int32Array over a SharedArrayBuffer that the calling
 * thread and every worker read, and the stage's numbers in a Float64Array beside it. Slots are
 * plain constants here and literals in the thread runtime's text (thread-runtime.ts, which must
 * match: thread-runtime.test.ts checks it).
 */
export const CONTROL = {
  /** Bumped by the calling thread for each command; workers wait on it. */
  SEQ: 0,
  /** The command of the last bump (COMMAND below). */
  CMD: 1,
  /**
   * The sequence number of the stage being opened: written first as the calling thread opens a
   * stage, before its claims, bounds and command (thread-runtime.ts, openStage). A thread that
   * copied a stage's bounds and finds it changed has read some of the next stage's: it claims
   * nothing. (Slot 3 is free.)
   */
  OPENING: 2,
  /** Workers that have taken the last views message (remap) or started (ready). */
  ACK: 4,
  /** Set by a thread whose kernel threw: the stage fails on the calling thread. */
  FAILED: 5,
  /** Threads in all, the calling one included. */
  THREADS: 6,
  /** Where each colour's rows start (COLOURS + 1 entries: the last is the overflow's start). */
  STARTS: 7,
  /**
   * 1 while there are no more threads than cores: a waiting thread spins a while before it blocks.
   * 0 with more: a spinning thread would hold a core the thread it waits for needs.
   */
  SPIN: 32,
  /** Per colour (COLOURS entries): how many of its chunks are done; zeroed as a stage opens. */
  DONE: 64,
  /**
   * Per colour, per home (COLOURS × HOMES entries, colour-major): the stage's tag (its SEQ's low
   * 19 bits) above how many of the home's chunks the threads have claimed (12 bits). A colour's
   * chunks are split into one home per thread (thread-runtime.ts); the calling thread retags the
   * words as it opens a stage (openStage); a thread claims a home's next chunk with a
   * compare-and-swap.
   */
  CLAIMS: 88,
  /** Control block length. */
  LENGTH: 88 + 24 * 16, // CLAIMS + COLOURS × HOMES
} as const;

/**
 * How many homes a colour's chunks are split into at most: one per thread, and threads beyond
 * this share them (thread-runtime.ts).
 */
export const HOMES = 16;

/** The stage's numbers (Float64Array): the substep's 1/h, the contacts' largest push speed, their softness (six); the substep h and the speed caps (integration); a user-batch pass's (six, constraint/user-kernels.ts's USER_PASS); a user-batch pose stage's (two, constraint/user-pose-kernels.ts's USER_POSE); gather's gravity (with H). */
export const PARAMS = { INV_H: 0, MAX_BIAS: 1, SOFT: 2, H: 8, MAX_SPEED: 9, MAX_SPIN: 10, USER: 12, USER_POSE: 18, GRAVITY_X: 20, GRAVITY_Y: 21, LENGTH: 22 } as const;

/** A stage's command: the narrowphase's polygon pairs, the contact solver's five (with the store back), the joint batch's (its stiff pivots: a warm start, one that first ends a substep, a pass, a position pass, one that first ends the step's last substep), the user batch's (a warm start, one that first ends a substep, a velocity pass; at a pose: its kernel rows' body states, a kernel group's J and C, every row's K factored), the bodies' gather and write back, and the pool's own. */
export const COMMAND = { CONTACT_WARM_START: 1, CONTACT_SOLVE: 2, CONTACT_RELAX: 3, PIVOT_WARM_START: 4, PIVOT_SOLVE: 5, PIVOT_POSITION: 6, CONTACT_PREPARE: 7, PIVOT_NEXT_SUBSTEP: 8, REMAP: 9, STOP: 10, PIVOT_REFRESH: 11, BODY_VELOCITIES: 12, BODY_POSITIONS: 13, NARROWPHASE: 14, USER_WARM_START: 15, USER_NEXT_SUBSTEP: 16, USER_SOLVE: 17, USER_POSE_STATES: 18, USER_POSE_GROUP: 19, USER_POSE_FACTOR: 20, CONTACT_STORE: 21, PIVOT_POSITION_CLOSE: 22, BODY_WRITE_BACK: 23, BODY_GATHER: 24 } as const;
