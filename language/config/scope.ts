// What names mean where the checker is: whether `self` is in scope, whether a condition is being
// checked, the iterators of the dynamic blocks around, and where `each` and `count` may be used.
import { Ctx, type FoundReference } from "./context.js";

/** Where the body being checked is (one body at a time: set on the way in, restored on the way out). */
export const scope = {
  /** a body where `self` refers to its resource (see BodySpec.allowsSelf) */
  selfAllowed: false,
  /** a condition block (precondition, postcondition, validation, assert) */
  inCondition: false,
  /** the iterator names of the dynamic blocks whose content is being checked (innermost last) */
  iterators: [] as string[],
};

export const REPETITION_WORDING = {
  each: 'Reference to "each" in context without for_each: The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.',
  count: 'Reference to "count" in non-counted context: The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.',
};

/** Reports the `each` and `count` references a block made that what it sets does not allow. */
export function judgeRepetition(ctx: Ctx, refs: readonly FoundReference[], repetition: "count" | "for_each" | null): void {
  for (const found of refs) {
    const root = found.ref.root as keyof typeof REPETITION_WORDING;
    if ((root === "each" ? "for_each" : "count") !== repetition) ctx.errorAtReference(found, "repetition-reference", REPETITION_WORDING[root]);
  }
}

/** Checks `check` with `name` usable as a dynamic block's iterator (in its content). */
export function withIterator<T>(name: string, check: () => T): T {
  scope.iterators.push(name);
  try {
    return check();
  } finally {
    scope.iterators.pop();
  }
}
