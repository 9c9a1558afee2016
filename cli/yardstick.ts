/**
 * The command line: `npx yardstick <command>`. Each command parses its arguments, calls one lib/
 * function (the same code the app runs) and prints the result.
 */
import path from "node:path";
import { readFileSync } from "node:fs";
import { parseFlags } from "@/lib/cli/flags";

const usage = `usage: yardstick <command>

  import <folder|zip|items.jsonl> --study <slug> [--skip-invalid] [--text-only]
                                                    import a batch, all or nothing unless
                                                    --skip-invalid: import the good entries and
                                                    list the skipped (skipInvalid=1);
                                                    --text-only: release questions without the
                                                    media the batch lacks (textOnly=1)
  import-run <answers.jsonl|model-output file> --study <slug> --name <model name>
                                                    import and score a model's answers (a
                                                    benchmark's own output file too)
  score --items <items.jsonl> --answers <answers.jsonl>
                                                    score answers offline, print JSON
  score --items <items.jsonl> --run <model-output file>
                                                    score a model run in a benchmark's format
  compare --items <items.jsonl> --answers <answers.jsonl> [--models <models.jsonl>]
          [--over people+items|items] [--seed S]   people vs each model on each kind's headline
                                                    metric: intervals over people and items, paired
                                                    differences with p-values, JSON
  plan --items <items.jsonl> --answers <pilot.jsonl> --halfwidth <h> [--items-per-person m] [--k k]
       [--detect d --model-score s] [--kind kind]   variance components of a pilot and the people
                                                    a half-width or a difference needs, JSON
  report --study <slug> [--format md|tex]           the human-baseline report: the field's reporting
                                                    checklist filled from the study, Markdown or LaTeX
  alpha --level <nominal|ordinal|interval|ratio> [--bootstrap N] [--seed S]
                                                    Krippendorff's alpha of {"data": [[...], ...]} on stdin
  assets migrate --to s3 [--clear-postgres]         copy every asset to the S3 bucket (S3_* settings),
                                                    verified by sha256, resumable; --clear-postgres
                                                    then drops the PostgreSQL copies

Without DATABASE_URL, commands that need a database use the embedded one under .yardstick/.`;

/** Paths on the command line are relative to where the user ran the command. */
export function userPath(p: string): string {
  return path.resolve(process.env.YARDSTICK_CWD ?? process.cwd(), p);
}

function need(flags: Record<string, string>, name: string): string {
  const value = flags[name];
  if (!value) throw new Error(`--${name} is required\n\n${usage}`);
  return value;
}

async function withDatabase<T>(run: () => Promise<T>): Promise<T> {
  const { openDatabase } = await import("@/lib/db/database-url");
  const { applyMigrations } = await import("@/lib/db/schema-engine");
  const database = await openDatabase();
  process.env.DATABASE_URL = database.url;
  try {
    if (database.embedded) await applyMigrations(database.url);
    return await run();
  } finally {
    const { disconnectDb } = await import("@/lib/db");
    await disconnectDb();
    await database.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { positional, flags } = parseFlags(rest, ["study", "name", "items", "answers", "run"], usage, "lenient", ["skip-invalid", "text-only"]);
  switch (command) {
    case "import": {
      const source = positional[0];
      if (!source) throw new Error(`import needs a folder, .zip or .jsonl\n\n${usage}`);
      const studySlug = need(flags, "study");
      const result = await withDatabase(async () => {
        const { importBatchFromPath } = await import("@/lib/import");
        return importBatchFromPath(userPath(source), { studySlug, skipInvalid: flags["skip-invalid"] === "true", textOnly: flags["text-only"] === "true" });
      });
      console.log(result.message);
      return 0;
    }
    case "import-run": {
      const file = positional[0];
      if (!file) throw new Error(`import-run needs an answers.jsonl\n\n${usage}`);
      const studySlug = need(flags, "study");
      const name = need(flags, "name");
      const result = await withDatabase(async () => {
        const { importModelRun } = await import("@/lib/models/runs");
        return importModelRun({ studySlug, name, answersJsonl: readFileSync(userPath(file), "utf8"), fileName: path.basename(file) });
      });
      console.log(result.message);
      return 0;
    }
    case "score": {
      const { runScoreCommand, runScoreRunCommand } = await import("@/lib/cli/score");
      const itemsPath = userPath(need(flags, "items"));
      if (flags.run !== undefined && flags.answers !== undefined) throw new Error(`score takes --answers or --run, not both\n\n${usage}`);
      if (flags.run !== undefined) {
        const runPath = userPath(need(flags, "run"));
        const items = readFileSync(itemsPath, "utf8");
        console.log(runScoreRunCommand(items, readFileSync(runPath, "utf8"), { items: path.basename(itemsPath), run: path.basename(runPath) }));
        return 0;
      }
      const answersPath = userPath(need(flags, "answers"));
      console.log(
        runScoreCommand(readFileSync(itemsPath, "utf8"), readFileSync(answersPath, "utf8"), {
          items: path.basename(itemsPath),
          answers: path.basename(answersPath),
        }),
      );
      return 0;
    }
    case "compare": {
      const { runCompareCli } = await import("@/lib/cli/compare");
      console.log(runCompareCli(rest, userPath));
      return 0;
    }
    case "plan": {
      const { runPlanCli } = await import("@/lib/cli/plan");
      console.log(runPlanCli(rest, userPath));
      return 0;
    }
    case "report": {
      const { parseReportArgs, runReportCommand } = await import("@/lib/cli/report");
      parseReportArgs(rest); // bad arguments fail before the database is opened
      process.stdout.write(await withDatabase(() => runReportCommand(rest)));
      return 0;
    }
    case "alpha": {
      const { runAlphaCommand } = await import("@/lib/cli/alpha");
      console.log(runAlphaCommand(rest, await readStdin()));
      return 0;
    }
    case "assets": {
      const { runAssetsCommand, parseAssetsArgs } = await import("@/lib/cli/assets");
      parseAssetsArgs(rest); // bad arguments fail before the database is opened
      console.log(await withDatabase(() => runAssetsCommand(rest, (line) => console.error(line))));
      return 0;
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(usage);
      return command ? 0 : 2;
    default:
      throw new Error(`unknown command "${command}"\n\n${usage}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const details = (error as { details?: { errors?: Array<{ file?: string; line?: number; field?: string; message: string }> } }).details;
    const message = error instanceof Error ? error.message : String(error);
    const lines = [`yardstick: ${message}`];
    // import errors list every problem in their message already
    const listed = details?.errors?.every((e) => message.includes(e.message)) ?? true;
    if (!listed)
      for (const e of details?.errors ?? [])
        lines.push(`  ${[e.file, e.line !== undefined ? `line ${e.line}` : undefined, e.field].filter(Boolean).join(", ")}: ${e.message}`);
    // exit only once stderr is flushed: a pipe would otherwise lose the end of the list
    process.stderr.write(lines.join("\n") + "\n", () => process.exit(1));
  },
);
