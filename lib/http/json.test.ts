import { describe, expect, it } from "vitest";
import { jsonResponse } from "@/lib/http/json";

describe("jsonResponse", () => {
  it("answers JSON that is neither cached nor transformed, keeping status and other headers", async () => {
    const response = jsonResponse({ note: "𝔘 é", n: 1 }, { status: 201, headers: { "x-request": "a", "cache-control": "public" } });
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(response.headers.get("x-request")).toBe("a");
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ note: "𝔘 é", n: 1 });
  });
});
