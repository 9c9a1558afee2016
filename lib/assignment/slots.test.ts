import { afterEach, describe, expect, it, vi } from "vitest";
import { createSlotLimiter } from "@/lib/assignment/slots";
import { DbSaturatedError } from "@/lib/db/transient";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("createSlotLimiter", () => {
  afterEach(() => vi.useRealTimers());

  it("runs at most `size` calls at once and starts a waiting one when a slot frees", async () => {
    const inSlot = createSlotLimiter(2, 10_000, "test");
    let running = 0;
    let most = 0;
    const gates = [gate(), gate(), gate()];
    const calls = gates.map((g, index) =>
      inSlot(async () => {
        running++;
        most = Math.max(most, running);
        await g.opened;
        running--;
        return index;
      }),
    );
    await vi.waitFor(() => expect(running).toBe(2));
    gates[0].open();
    await vi.waitFor(() => expect(running).toBe(2));
    gates[1].open();
    gates[2].open();
    expect(await Promise.all(calls)).toEqual([0, 1, 2]);
    expect(most).toBe(2);
  });

  it("refuses a call that waited past waitMs with DbSaturatedError, never runs it, and keeps the slot count", async () => {
    vi.useFakeTimers();
    const inSlot = createSlotLimiter(1, 1_000, "next-item");
    const first = gate();
    const ran: string[] = [];
    const holding = inSlot(async () => {
      ran.push("first");
      await first.opened;
    });
    const waiting = inSlot(async () => {
      ran.push("late");
    });
    const refused = expect(waiting).rejects.toThrow(new DbSaturatedError("No next-item slot within 1 s"));
    await vi.advanceTimersByTimeAsync(1_000);
    await refused;
    first.open();
    await holding;
    expect(await inSlot(async () => "after")).toBe("after");
    expect(ran).toEqual(["first"]);
  });

  it("passes the work's error through", async () => {
    const inSlot = createSlotLimiter(1, 1_000, "test");
    await expect(inSlot(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await inSlot(async () => 1)).toBe(1);
  });
});
