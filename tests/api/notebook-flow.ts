import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** What the tests of examples/notebook_flow.py share: running it, and the EgoSchema release and model output it is given. */

const root = path.resolve(import.meta.dirname, "..", "..");
export const EGOSCHEMA_RELEASE = path.join(root, "tests", "fixtures", "choice-releases", "egoschema");

export interface FlowRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** python3 with these arguments; python3 missing fails the test instead of skipping it (CI has it). */
export function runPython(args: string[], env: Record<string, string> = {}): Promise<FlowRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", args, { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => reject(new Error(`python3 could not be started (${error.message}): examples/notebook_flow.py needs it`)));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** examples/notebook_flow.py run as a researcher would. */
export function runNotebookFlow(args: string[], env: Record<string, string> = {}): Promise<FlowRun> {
  return runPython([path.join(root, "examples", "notebook_flow.py"), ...args], env);
}

/** The release's q_uids, in its order. */
export function egoschemaUids(): string[] {
  return (JSON.parse(readFileSync(path.join(EGOSCHEMA_RELEASE, "questions.json"), "utf8")) as Array<{ q_uid: string }>).map((q) => q.q_uid);
}

/**
 * Into `dir`: release/ (EgoSchema's questions.json and subset_answers.json, without the videos)
 * and egoschema-outputs.json, EgoSchema's submission file {q_uid: 0-4} as a model's evaluation
 * writes it. Returns their paths.
 */
export function writeEgoschemaInputs(dir: string): { release: string; outputs: string } {
  const release = path.join(dir, "release");
  mkdirSync(release, { recursive: true });
  for (const file of ["questions.json", "subset_answers.json"]) copyFileSync(path.join(EGOSCHEMA_RELEASE, file), path.join(release, file));
  const outputs = path.join(dir, "egoschema-outputs.json");
  writeFileSync(outputs, JSON.stringify(Object.fromEntries(egoschemaUids().map((uid) => [uid, 3]))));
  return { release, outputs };
}

/** The summary the script prints for the whole flow over that release, its run named model-x. */
export function expectedSummary(slug: string, exportBytes: number, out: string): string[] {
  const n = egoschemaUids().length;
  return [
    `study: ${slug}`,
    `import: SUCCEEDED, ${n} items (${n} new, 0 skipped)`,
    "members: 1 added",
    `progress: 0 of ${n} answers, ${n} items`,
    `model run: model-x, format egoschema, ${n} scored, 0 unparsed`,
    `dashboard: ${n} items, models model-x`,
    `export: ${slug}-predictions.csv, ${n} rows, ${exportBytes} bytes, sha256 checked -> ${out}`,
  ];
}
