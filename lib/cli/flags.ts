import { parseArgs } from "node:util";

/** A strict-mode refusal: what is wrong, the flag's name (without dashes) and the argument as given. */
export class FlagError extends Error {
  constructor(
    message: string,
    readonly reason: "unknown" | "missing" | "repeated" | "valued",
    readonly arg: string,
    readonly flag: string | null,
  ) {
    super(message);
  }
}

export interface ParsedFlags {
  positional: string[];
  flags: Record<string, string>;
}

const flagName = (arg: string): string | null => (arg.startsWith("--") && arg.length > 2 ? arg.slice(2).split("=", 1)[0] : null);

/**
 * Command-line flags by node:util parseArgs: `--name value` or `--name=value`. A flag without a
 * value (last, followed by another `--flag`, or `--name=`) is left out in "lenient" mode (the
 * command then says it is required) and refused in "strict" mode, which also refuses flags other
 * than `names`, positional arguments and a flag given twice; lenient mode keeps the last of
 * repeated flags and skips unknown flags with their values. `switches` take no value: one given
 * reads "true" in `flags` (absent otherwise), and the argument after it stays an argument; a value
 * given to one (`--text-only=1`) is refused in both modes, since it would read as a choice it is not.
 * @throws {FlagError} in strict mode: "unknown argument <arg> (<usage>)", "--name needs a value
 *   (<usage>)", "--name is given twice"; in both modes "--name takes no value (<usage>)"
 * @example
 * parseFlags(["data", "--study", "demo"], ["study"], "usage: ...", "lenient"); // { positional: ["data"], flags: { study: "demo" } }
 * parseFlags(["--text-only", "data"], [], "usage: ...", "lenient", ["text-only"]); // { positional: ["data"], flags: { "text-only": "true" } }
 */
export function parseFlags(
  args: readonly string[],
  names: readonly string[],
  usage: string,
  mode: "strict" | "lenient",
  switches: readonly string[] = [],
): ParsedFlags {
  // lenient: every --flag but a switch takes a value, so an unknown one does not leave its value as a positional
  const valued = (mode === "lenient" ? [...new Set([...names, ...args.map(flagName).filter((name): name is string => name !== null)])] : names).filter(
    (name) => !switches.includes(name),
  );
  // a flag followed by another flag has no value (parseArgs would take the next flag as its value)
  const normalized = args.map((arg, i) =>
    valued.includes(flagName(arg) ?? "") && !arg.includes("=") && (i + 1 === args.length || args[i + 1].startsWith("--")) ? `${arg}=` : arg,
  );
  const options = {
    ...Object.fromEntries(valued.map((name) => [name, { type: "string" as const }])),
    ...Object.fromEntries(switches.map((name) => [name, { type: "boolean" as const }])),
  };
  const { tokens } = parseArgs({ args: normalized, options, strict: false, allowPositionals: true, tokens: true });
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue;
    if (token.kind === "positional") {
      if (mode === "strict") throw new FlagError(`unknown argument ${token.value} (${usage})`, "unknown", token.value, null);
      positional.push(token.value);
      continue;
    }
    if (switches.includes(token.name) && token.rawName === `--${token.name}`) {
      if (token.value !== undefined) throw new FlagError(`--${token.name} takes no value (${usage})`, "valued", args[token.index], token.name);
      if (mode === "strict" && token.name in flags) throw new FlagError(`--${token.name} is given twice`, "repeated", args[token.index], token.name);
      flags[token.name] = "true";
      continue;
    }
    if (!names.includes(token.name) || token.rawName !== `--${token.name}`) {
      if (mode === "strict") throw new FlagError(`unknown argument ${args[token.index]} (${usage})`, "unknown", args[token.index], null);
      continue;
    }
    const value = token.value ?? "";
    if (mode === "lenient") {
      if (value === "") delete flags[token.name];
      else flags[token.name] = value;
      continue;
    }
    if (value === "") throw new FlagError(`--${token.name} needs a value (${usage})`, "missing", args[token.index], token.name);
    if (token.name in flags) throw new FlagError(`--${token.name} is given twice`, "repeated", args[token.index], token.name);
    flags[token.name] = value;
  }
  return { positional, flags };
}
