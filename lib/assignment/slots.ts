import pLimit from "p-limit";
import { DbSaturatedError } from "@/lib/db/transient";

/**
 * Runs at most `size` calls of `work` at once; a call that waits longer than `waitMs` for its turn
 * is refused with DbSaturatedError (the routes answer 503 with Retry-After).
 */
export function createSlotLimiter(size: number, waitMs: number, label: string): <T>(work: () => Promise<T>) => Promise<T> {
  const limit = pLimit(size);
  return async function inSlot<T>(work: () => Promise<T>): Promise<T> {
    let gaveUp = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refused = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        gaveUp = true;
        reject(new DbSaturatedError(`No ${label} slot within ${waitMs / 1000} s`));
      }, waitMs);
    });
    // p-limit cannot take a queued call back out: one whose caller gave up gives its turn back at once
    const served = limit(async () => {
      clearTimeout(timer);
      return gaveUp ? null : { value: await work() };
    });
    const result = await Promise.race([served, refused]);
    if (result === null) throw new DbSaturatedError(`No ${label} slot within ${waitMs / 1000} s`);
    return result.value;
  };
}
