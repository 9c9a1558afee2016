import { describe, expect, it } from "vitest";
import { isPhoneOrTabletRequest } from "@/lib/client/device";

describe("isPhoneOrTabletRequest (desktop-only studies)", () => {
  it("recognises phones and tablets by their user agent or Client Hints", () => {
    expect(
      isPhoneOrTabletRequest(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      ),
    ).toBe(true);
    expect(isPhoneOrTabletRequest("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36")).toBe(
      true,
    );
    expect(isPhoneOrTabletRequest("Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36")).toBe(true);
    expect(isPhoneOrTabletRequest("Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15")).toBe(true);
    expect(isPhoneOrTabletRequest("anything", "?1")).toBe(true);
  });

  it("lets desktops through (iPadOS posing as a Mac is left to the pointer check in the browser)", () => {
    expect(isPhoneOrTabletRequest("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", "?0")).toBe(false);
    expect(
      isPhoneOrTabletRequest("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15"),
    ).toBe(false);
    expect(isPhoneOrTabletRequest("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36")).toBe(false);
    expect(isPhoneOrTabletRequest(null)).toBe(false);
  });
});
