import { describe, expect, it } from "vitest";
import { signInErrorMessage, WRONG_CREDENTIALS_MESSAGE } from "@/lib/auth/sign-in-errors";

describe("signInErrorMessage", () => {
  it("words the lockouts, with the minutes left", () => {
    expect(signInErrorMessage("locked:pair:15")).toBe(
      "Too many failed sign-ins for this account from your network: it is locked here for now. Try again in 15 minutes.",
    );
    expect(signInErrorMessage("wait:email:8")).toBe("Too many failed sign-ins for this account: wait 8 seconds and try again.");
    expect(signInErrorMessage("locked:address:1")).toBe("Too many failed sign-ins from your network: signing in from it is paused. Try again in 1 minute.");
  });

  it("shows nothing but the generic message for any other error, so a link cannot put its own words on the page", () => {
    expect(signInErrorMessage("CredentialsSignin")).toBe(WRONG_CREDENTIALS_MESSAGE);
    expect(signInErrorMessage("Call +1 555 0100 to unlock your account")).toBe(WRONG_CREDENTIALS_MESSAGE);
    expect(signInErrorMessage("locked:pair:15 but also this")).toBe(WRONG_CREDENTIALS_MESSAGE);
    expect(signInErrorMessage(undefined)).toBeUndefined();
    expect(signInErrorMessage("")).toBeUndefined();
  });
});
