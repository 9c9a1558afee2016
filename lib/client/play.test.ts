import { describe, expect, it } from "vitest";
import { PlayHttpError, playRetryDelayMs, shouldRetryPlay } from "@/lib/client/play";

describe("play step retries", () => {
  it("backs off from half a second to at most eight", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(playRetryDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it("retries network failures without end and gives up on client errors at once", () => {
    expect(shouldRetryPlay(new TypeError("Failed to fetch"), 50)).toBe(true);
    expect(shouldRetryPlay(new PlayHttpError(500, "boom"), 50)).toBe(true);
    expect(shouldRetryPlay(new PlayHttpError(422, "bad action"), 0)).toBe(false);
    expect(shouldRetryPlay(new PlayHttpError(409, "closed"), 0)).toBe(false);
  });

  it("retries a simulator that is down (503) three times in all, then shows it", () => {
    const down = new PlayHttpError(503, "simulator down");
    expect([0, 1, 2].map((attempt) => shouldRetryPlay(down, attempt))).toEqual([true, true, false]);
  });
});
