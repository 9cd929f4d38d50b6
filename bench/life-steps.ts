/**
 * What the client lives of bench/ share (a makers' client driven through one resource's life on a real server, our
 * mock and Prism, each step scored apart): the step, its outcome, the runner and the two assertions steps make.
 */

/** One step: a name that says what the server documents, and a call that throws (with what it got) when the answer differs. */
export interface LifeStep<State> {
  name: string;
  run(state: State): Promise<void>;
}

/** The outcome of one step; `detail` holds what the server answered instead when `ok` is false. */
export interface StepOutcome {
  name: string;
  ok: boolean;
  detail?: string;
}

/** Runs every step in order on `state`, each scored apart: a failed step does not stop the life. */
export async function runSteps<State>(steps: readonly LifeStep<State>[], state: State): Promise<StepOutcome[]> {
  const outcomes: StepOutcome[] = [];
  for (const step of steps) {
    try {
      await step.run(state);
      outcomes.push({ name: step.name, ok: true });
    } catch (error) {
      outcomes.push({ name: step.name, ok: false, detail: error instanceof Error ? error.message : String(error) });
    }
  }
  return outcomes;
}

/** Throws with both values when `actual` and `expected` differ as JSON. */
export function same(actual: unknown, expected: unknown): void {
  const got = JSON.stringify(actual);
  const want = JSON.stringify(expected);
  if (got !== want) throw new Error(`got ${got.slice(0, 200)}, expected ${want.slice(0, 200)}`);
}

/** The status a refused call carried (a client that throws an error with the `Response`, as `@jupyterlab/services`' `ResponseError`); 0 when the call was answered as the client expects. */
export async function refusedWith(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 0;
  } catch (error) {
    const { response } = error as { response?: { status?: unknown } };
    if (typeof response?.status === 'number') return response.status;
    throw error;
  }
}
