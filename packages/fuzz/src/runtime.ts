/**
 * The fault injector that the fuzz's own user-constraint hooks call (`F.hook(this, 'position', err)`
 * at the end of every hook). Armed by an action, it fires on the n-th call of one hook of one
 * constraint, and then
 *   - 'throw':          throws an InjectedHookError (the engine must let it through as it is);
 *   - 'nan':            writes NaN or ±Infinity into the hook's output (the engine must reject it);
 *   - 'mutate-caught':  attempts a forbidden mutation of the space (the call must throw a
 *                       FulcrumInputError and change nothing) and catches the error itself, so the
 *                       step goes on;
 *   - 'mutate-throw':   the same, but lets the error out of the hook (and so out of step());
 *   - 'valid':          makes a change the docs allow from inside a hook (a constraint's
 *                       parameters), which must not throw.
 *
 * Self-contained on purpose: its source is printed into repro scripts (`String(HookRuntime)`).
 */
export class HookRuntime {
  static Injected = class InjectedHookError extends Error {
    constructor(message: string) {
      super(message);
      this.name = 'InjectedHookError';
    }
  };

  armed: {
    mode: 'throw' | 'nan' | 'mutate-caught' | 'mutate-throw' | 'valid';
    target: unknown;
    hook: string;
    countdown: number;
    value?: number;
    index?: number;
    run?: () => void;
  } | null = null;
  /** Set when the armed fault fired. */
  fired = false;
  /** What the fault did: the error a mutation threw, whether the state changed, the injected error. */
  result: { error?: unknown; accepted?: boolean; changed?: boolean; thrown?: unknown } = {};
  /** How the observable state is hashed ('mutate-caught' compares it around the attempt). */
  hashState: () => string = () => '';

  arm(a: NonNullable<HookRuntime['armed']>): void {
    this.armed = { ...a };
    this.fired = false;
    this.result = {};
  }

  disarm(): void {
    this.armed = null;
  }

  hook(c: unknown, name: string, out?: unknown): void {
    const a = this.armed;
    if (a === null || a.target !== c || a.hook !== name) return;
    if (a.countdown-- > 0) return;
    this.armed = null;
    this.fired = true;
    if (a.mode === 'throw') {
      const e = new HookRuntime.Injected(`injected failure in ${name}()`);
      this.result.thrown = e;
      throw e;
    }
    if (a.mode === 'nan') {
      const v = a.value ?? NaN;
      if (out instanceof Float64Array) {
        // Within the hook's own output: the engine's scratch arrays may be longer than that.
        const u = c as { dimensions?: number; bodyList?: readonly unknown[] };
        const rows = u.dimensions ?? out.length;
        const size = name === 'jacobian' ? rows * 3 * (u.bodyList?.length ?? 1) : name === 'effMass' ? (rows * (rows + 1)) / 2 : rows;
        out[(a.index ?? 0) % Math.min(size, out.length)] = v;
      } else if (out !== null && typeof out === 'object') {
        const o = out as Record<string, number>;
        o[['x', 'y', 'z'][(a.index ?? 0) % 3]!] = v;
      }
      return;
    }
    if (a.mode === 'mutate-caught') {
      const before = this.hashState();
      try {
        a.run!();
        this.result.accepted = true;
      } catch (e) {
        this.result.error = e;
      }
      this.result.changed = this.hashState() !== before;
      return;
    }
    if (a.mode === 'mutate-throw') {
      try {
        a.run!();
      } catch (e) {
        this.result.error = e;
        throw e;
      }
      this.result.accepted = true;
      return;
    }
    try {
      a.run!();
    } catch (e) {
      this.result.error = e;
    }
  }
}
