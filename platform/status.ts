// Status transitions derived from timestamps at read time: no background worker. A mutation stores
// a "track": when it started, the transitional statuses with how long each lasts, and the status
// reached at the end. Durations are fixed when the track is written (from the writer's transition
// setting), so every reader of the same database sees the same status at the same instant.

export interface Track<S extends string = string> {
  /** epoch milliseconds when the first step began */
  since: number;
  /** transitional statuses, in order, each with its duration in milliseconds */
  steps: Array<[S, number]>;
  /** the status once every step has elapsed */
  final: S;
}

export function track<S extends string>(since: number, steps: Array<[S, number]>, final: S): Track<S> {
  return { since, steps: steps.filter(([, ms]) => ms > 0), final };
}

/** The status at `now`. */
export function statusAt<S extends string>(t: Track<S>, now: number): S {
  let at = t.since;
  for (const [status, ms] of t.steps) {
    at += ms;
    if (now < at) return status;
  }
  return t.final;
}

/** When the track reaches its final status. */
export function settlesAt(t: Track): number {
  return t.steps.reduce((sum, [, ms]) => sum + ms, t.since);
}

export function parseTrack<S extends string>(json: string): Track<S> {
  return JSON.parse(json) as Track<S>;
}
