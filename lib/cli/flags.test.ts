import { describe, expect, it } from "vitest";
import { FlagError, parseFlags } from "@/lib/cli/flags";

const usage = "usage: test";
const lenient = (...args: string[]) => parseFlags(args, ["study", "name"], usage, "lenient");
const strict = (...args: string[]) => parseFlags(args, ["level", "seed"], usage, "strict");

describe("parseFlags, lenient (the yardstick commands)", () => {
  it("reads --name value and --name=value around positional arguments", () => {
    expect(lenient("data", "--study", "demo", "--name=GPT 5")).toEqual({ positional: ["data"], flags: { study: "demo", name: "GPT 5" } });
  });

  it("leaves out a flag without a value, whether last, before another flag or empty", () => {
    expect(lenient("data", "--study")).toEqual({ positional: ["data"], flags: {} });
    expect(lenient("--study", "--name", "x", "data")).toEqual({ positional: ["data"], flags: { name: "x" } });
    expect(lenient("--study=", "data")).toEqual({ positional: ["data"], flags: {} });
  });

  it("keeps the last of repeated flags and skips unknown flags with their values", () => {
    expect(lenient("--study", "a", "--study", "b")).toEqual({ positional: [], flags: { study: "b" } });
    expect(lenient("--verbose", "yes", "data", "--study", "s")).toEqual({ positional: ["data"], flags: { study: "s" } });
  });
});

describe("parseFlags, switches (yardstick import --skip-invalid --text-only)", () => {
  const switches = ["skip-invalid", "text-only"];
  const parse = (...args: string[]) => parseFlags(args, ["study"], usage, "lenient", switches);

  it("reads a switch as true without taking the next argument as its value", () => {
    expect(parse("--text-only", "data", "--study", "s")).toEqual({ positional: ["data"], flags: { "text-only": "true", study: "s" } });
    expect(parse("data", "--study", "s", "--skip-invalid", "--text-only")).toEqual({
      positional: ["data"],
      flags: { study: "s", "skip-invalid": "true", "text-only": "true" },
    });
    expect(parse("data", "--study", "s")).toEqual({ positional: ["data"], flags: { study: "s" } });
  });

  it("leaves a flag before a switch without a value, as before another flag", () => {
    expect(parse("data", "--study", "--text-only")).toEqual({ positional: ["data"], flags: { "text-only": "true" } });
  });

  it("refuses a value given to a switch, in either mode", () => {
    expect(() => parse("data", "--text-only=1")).toThrow("--text-only takes no value (usage: test)");
    expect(() => parse("data", "--text-only=")).toThrow("--text-only takes no value (usage: test)");
    expect(() => parseFlags(["--skip-invalid=no"], [], usage, "strict", switches)).toThrow("--skip-invalid takes no value (usage: test)");
    expect(() => parseFlags(["--text-only", "--text-only"], [], usage, "strict", switches)).toThrow("--text-only is given twice");
  });
});

describe("parseFlags, strict (yardstick alpha)", () => {
  it("reads the known flags, negative numbers included", () => {
    expect(strict("--level", "nominal", "--seed=-5")).toEqual({ positional: [], flags: { level: "nominal", seed: "-5" } });
    expect(strict("--seed", "-5")).toEqual({ positional: [], flags: { seed: "-5" } });
  });

  it("refuses unknown flags, positional arguments, missing values and repeats", () => {
    expect(() => strict("--level", "nominal", "--foo")).toThrow("unknown argument --foo (usage: test)");
    expect(() => strict("--foo=1")).toThrow("unknown argument --foo=1 (usage: test)");
    expect(() => strict("extra")).toThrow("unknown argument extra (usage: test)");
    expect(() => strict("--level")).toThrow("--level needs a value (usage: test)");
    expect(() => strict("--level", "--seed", "1")).toThrow("--level needs a value (usage: test)");
    expect(() => strict("--level=")).toThrow("--level needs a value (usage: test)");
    expect(() => strict("--level", "a", "--level", "b")).toThrow("--level is given twice");
  });

  it("says what is wrong in a FlagError, for commands that word it their own way", () => {
    const refusal = (...args: string[]) => {
      try {
        strict(...args);
      } catch (error) {
        return error instanceof FlagError ? { reason: error.reason, arg: error.arg, flag: error.flag } : error;
      }
      return null;
    };
    expect(refusal("--bogus=1")).toEqual({ reason: "unknown", arg: "--bogus=1", flag: null });
    expect(refusal("--seed")).toEqual({ reason: "missing", arg: "--seed", flag: "seed" });
    expect(refusal("--seed", "1", "--seed=2")).toEqual({ reason: "repeated", arg: "--seed=2", flag: "seed" });
  });
});
