import fc from 'fast-check';

/**
 * Thrown while generating when no value satisfying a schema could be drawn within the bounds of
 * {@link boundedFilter} (tries and nodes drawn). It says the suite could not build an input, never that the target is
 * wrong: `runCheck` turns it into advice on a passing check.
 */
export class GenerationGaveUp extends Error {
  /** `why`, when given, replaces the message about generation (an input the target's state keeps the suite from sending). */
  constructor(readonly what: string, why?: string) {
    super(why ?? `no valid ${what} could be generated within the suite's bounds (the spec's constraints may be unsatisfiable or too rare to hit)`);
    this.name = 'GenerationGaveUp';
    // V8 keeps an error's call sites, with the object each frame ran on, until its stack is first read: an error
    // thrown from inside a draw held the draw's whole tree of arbitraries (megabytes for a large form body) for as
    // long as it was kept (a set-up's reason, a remembered draw). Reading it now writes the text and lets them go.
    void this.stack;
  }
}

/**
 * A check that cannot be run as the spec and the target stand: an input no schema branch admits, or a set-up (a
 * parent record, a referenced record) the target did not let the suite make. The check ends "not run" with
 * `reason` (spec/DECISIONS.md › D160), never failed: the target was not shown to be wrong.
 */
export class NotRun extends GenerationGaveUp {
  constructor(what: string, readonly reason: string) {
    super(what, reason);
    this.name = 'NotRun';
  }
}

/**
 * Bounds of one generation, both counts of work and never of time, so that a seed draws the same on an idle machine
 * and on a loaded one (D800): at most `tries` candidates, and at most `nodes` nodes of drawn values (see
 * {@link nodesOf}) counted over every candidate drawn while the generation lasts, nested generations' included.
 */
export interface GenerationBounds {
  tries: number;
  nodes: number;
}

/** Draws tried for a first value (nothing found yet to fall back on): the search is worth some work once. */
const FIRST_BOUNDS: GenerationBounds = { tries: 2_000, nodes: 50_000 };
/** Draws tried once valid values are known: past these a known valid value is reused instead. */
const LATER_BOUNDS: GenerationBounds = { tries: 60, nodes: 10_000 };
/** Candidates every generation may draw whatever its work so far: a nested one is not left without a try. */
const MIN_TRIES = 3;
/** Valid values kept per arbitrary to fall back on. */
const POOL_SIZE = 16;

/**
 * Nodes of every candidate drawn by any bounded generation in this process: a counter only ever read as the
 * difference between two of its readings within one synchronous generation, so no run learns anything from it.
 */
let drawnNodes = 0;

/**
 * The size of a drawn value as work: one node for it, and for each member or item at any depth (a string is one
 * node, whatever its length). Building a candidate, validating it and encoding it each cost about this many steps.
 */
function nodesOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  let nodes = 1;
  if (Array.isArray(value)) for (const item of value) nodes += nodesOf(item);
  else for (const member of Object.values(value)) nodes += nodesOf(member);
  return nodes;
}

/** What a reusable arbitrary must forget between draws: the values and give-ups its earlier draws found. */
interface Learning {
  forget(): void;
}

/** The generations made while {@link reusable} builds an arbitrary, to forget before each of its draws. */
let building: Learning[] | undefined;

/**
 * `build()`, built once and drawn from many times, each draw the one a newly built arbitrary makes: the function
 * returned hands back the same arbitrary with what its bounded generations learned (valid values kept, a first
 * choice given up, {@link orElse}) forgotten, so a draw's outcome never depends on the draws before it. Building a
 * large body's arbitraries once instead of once per seed saves their making and their garbage (D802). Errors:
 * what `build` throws.
 */
export function reusable<T>(build: () => fc.Arbitrary<T>): () => fc.Arbitrary<T> {
  const outer = building;
  const held: Learning[] = [];
  building = held;
  let arbitrary: fc.Arbitrary<T>;
  try {
    arbitrary = build();
  } finally {
    building = outer;
  }
  // Built inside another reusable build: that one forgets these too.
  outer?.push(...held);
  return () => {
    for (const learning of held) learning.forget();
    return arbitrary;
  };
}

/**
 * `arbitrary` filtered by `predicate`, with every generation bounded (fast-check's `filter` draws without end, and
 * a rare predicate, such as a `pattern` with a length or two `oneOf` branches that overlap, stalls a run). Valid
 * values met are kept (a few); when a draw runs out of tries or work, one of them is reused, chosen by the
 * same random source, so runs stay reproducible from their seed. With none known yet, it throws
 * {@link GenerationGaveUp} naming `what` (a function is called only then: the text of a large schema is costly to
 * write for every arbitrary built and is read only when one gives up). Shrinking keeps only values the predicate accepts.
 */
export function boundedFilter<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => boolean, what: string | (() => string)): fc.Arbitrary<T> {
  return new BoundedFilter(arbitrary, predicate, what);
}

class BoundedFilter<T> extends fc.Arbitrary<T> implements Learning {
  private readonly pool: fc.Value<T>[] = [];

  constructor(
    private readonly arbitrary: fc.Arbitrary<T>,
    private readonly predicate: (value: T) => boolean,
    private readonly what: string | (() => string),
  ) {
    super();
    building?.push(this);
  }

  forget(): void {
    this.pool.length = 0;
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    const bounds = this.pool.length === 0 ? FIRST_BOUNDS : LATER_BOUNDS;
    // Counted from here: the nodes of this generation's candidates and of those its nested generations drew.
    const start = drawnNodes;
    for (let tries = 0; tries < bounds.tries && (tries < MIN_TRIES || drawnNodes - start < bounds.nodes); tries++) {
      const drawn = this.arbitrary.generate(mrng, biasFactor);
      drawnNodes += nodesOf(drawn.value);
      if (this.predicate(drawn.value)) {
        if (this.pool.length < POOL_SIZE) this.pool.push(drawn);
        return drawn;
      }
    }
    if (this.pool.length === 0) throw new GenerationGaveUp(typeof this.what === 'string' ? this.what : this.what());
    return this.pool[mrng.nextInt(0, this.pool.length - 1)]!;
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arbitrary.canShrinkWithoutContext(value) && this.predicate(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    // A bounded look at the shrinks: past it, the counterexample stays as found rather than the search going on.
    return this.arbitrary.shrink(value, context).take(200).filter((candidate) => this.predicate(candidate.value));
  }
}

/**
 * `first`, or `second` once `first` gave up generating ({@link GenerationGaveUp}): a preferred shape of value with a
 * plainer one behind it (a create's whole body, D181, then the body as its schema requires it, D327). Once `first`
 * gave up it is not tried again by this arbitrary (its bounds were spent). A {@link NotRun} of `first` is no
 * generation failure and is thrown as it is.
 */
export function orElse<T>(first: fc.Arbitrary<T>, second: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return new OrElse(first, second);
}

class OrElse<T> extends fc.Arbitrary<T> implements Learning {
  private gaveUp = false;

  constructor(
    private readonly first: fc.Arbitrary<T>,
    private readonly second: fc.Arbitrary<T>,
  ) {
    super();
    building?.push(this);
  }

  forget(): void {
    this.gaveUp = false;
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    if (!this.gaveUp) {
      try {
        const value = this.first.generate(mrng, biasFactor);
        return new fc.Value(value.value_, { from: 'first', context: value.context });
      } catch (error) {
        if (!(error instanceof GenerationGaveUp) || error instanceof NotRun) throw error;
        this.gaveUp = true;
      }
    }
    const value = this.second.generate(mrng, biasFactor);
    return new fc.Value(value.value_, { from: 'second', context: value.context });
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.first.canShrinkWithoutContext(value) || this.second.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    const held = context as { from: 'first' | 'second'; context: unknown } | undefined;
    const source = held?.from === 'second' ? this.second : this.first;
    return source.shrink(value, held?.context).map((shrunk) => new fc.Value(shrunk.value_, { from: held?.from ?? 'first', context: shrunk.context }));
  }
}
