// How long the HTTP client may keep retrying a request, and when to give up at once, carried
// from the provider's operation (its `timeouts` block, Terraform's Stop) to every request made
// on its behalf without threading them through each PlatformClient method.

import { AsyncLocalStorage } from "node:async_hooks";

export interface CallBudget {
  /** epoch ms after which no retry starts */
  deadline: number;
  /** aborts the request in flight and any retry still to come */
  signal?: AbortSignal;
}

const current = new AsyncLocalStorage<CallBudget>();

/** Runs `fn` with every platform request inside it bounded by `budget`. */
export function withCallBudget<T>(budget: CallBudget, fn: () => Promise<T>): Promise<T> {
  return current.run(budget, fn);
}

/** The budget of the operation this request belongs to, if one was set. */
export function currentCallBudget(): CallBudget | undefined {
  return current.getStore();
}
