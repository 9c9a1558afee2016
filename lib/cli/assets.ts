import { parseArgs } from "node:util";

export const ASSETS_USAGE = "usage: yardstick assets migrate --to s3 [--clear-postgres]";

/**
 * The arguments of `yardstick assets ...`: only `migrate --to s3`, optionally `--clear-postgres`
 * (remove the PostgreSQL copy of every asset verified in the bucket). Throws with the usage.
 */
export function parseAssetsArgs(args: readonly string[]): { command: "migrate"; to: "s3"; clearPostgres: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { to: { type: "string" }, "clear-postgres": { type: "boolean" } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${ASSETS_USAGE}`);
  }
  const [command, ...extra] = parsed.positionals;
  if (command !== "migrate" || extra.length > 0)
    throw new Error(`unknown assets command ${JSON.stringify([command, ...extra].filter(Boolean).join(" "))}\n${ASSETS_USAGE}`);
  if (parsed.values.to !== "s3") throw new Error(`--to s3 is required (the only target)\n${ASSETS_USAGE}`);
  return { command: "migrate", to: "s3", clearPostgres: parsed.values["clear-postgres"] === true };
}

/** Runs `yardstick assets migrate --to s3` against the open database; returns the report. */
export async function runAssetsCommand(args: readonly string[], log: (line: string) => void = () => undefined): Promise<string> {
  const options = parseAssetsArgs(args);
  const { s3Settings } = await import("@/lib/assets/config");
  const settings = s3Settings();
  const { migrateAssetsToS3 } = await import("@/lib/assets/migrate");
  const result = await migrateAssetsToS3(settings, {
    clearPostgres: options.clearPostgres,
    onAsset: ({ done }) => {
      if (done % 100 === 0) log(`${done} assets looked at`);
    },
  });
  if (result.failed.length > 0) throw new Error(result.message);
  return result.message;
}
