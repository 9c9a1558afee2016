import pRetry from "p-retry";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { esiObjectNameSchema } from "@/lib/tasks/esi-explore/actions";

/**
 * The client of a live simulator attached to an ESI study over HTTP (docs/esi.md, "Simulator
 * protocol"). Study setting `simulatorUrl`; the server, never the browser, calls:
 *
 * - `POST {simulatorUrl}/episodes` with `{ itemId, assignmentId, scene, room, initialPose }` ->
 *   `{ episodeId, image, objects, holding?, viewpoint?, contrastive? }`;
 * - `POST {simulatorUrl}/episodes/{episodeId}/step` with `{ action, seq }` (action as canonical
 *   text, e.g. "pick_up(mug_1)") -> `{ image, objects, valid, message?, holding?, viewpoint?,
 *   contrastive? }`.
 *
 * `image` is a data: URL (PNG, JPEG or WebP, base64) or an http(s) URL the annotator's browser
 * can load. `viewpoint` and `contrastive` feed the trajectory metrics and never reach the browser.
 * Each call times out and is retried on network errors, timeouts and 5xx replies (a step carries
 * its seq, so a simulator can answer a repeated one from its record); when every try fails the
 * annotator is told the simulator is down (AppError UNAVAILABLE, HTTP 503) and nothing is stored.
 *
 * A researcher sets the URL, so the server calls only hosts on the allow-list of its configuration
 * (`YARDSTICK_SIMULATOR_HOSTS`: comma-separated `host` or `host:port`; unset, no simulator is
 * called), and never follows a redirect (a 3xx is a refusal): a study's setting cannot make the
 * server probe internal addresses.
 */

export const DEFAULT_SIMULATOR_TIMEOUT_MS = 4000;
export const DEFAULT_SIMULATOR_RETRIES = 2;
/** a try plus its waits must end well inside lib/annotate/play.ts's 30 s step transaction */
export const MAX_SIMULATOR_BUDGET_MS = 25_000;
const MAX_IMAGE_URL_CHARS = 12 * 1024 * 1024;

export const simulatorImageSchema = z
  .string()
  .max(MAX_IMAGE_URL_CHARS, "an image of at most 12 MB")
  .refine(
    (value) => /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=\s]+$/.test(value) || /^https?:\/\/\S+$/.test(value),
    "a data:image/png|jpeg|webp;base64 URL or an http(s) URL",
  );

const observationFields = {
  image: simulatorImageSchema,
  objects: z.array(esiObjectNameSchema).max(500).default([]),
  holding: z.array(esiObjectNameSchema).max(20).optional(),
  viewpoint: z.string().min(1).max(120).optional(),
  contrastive: z.boolean().optional(),
};

export const simulatorEpisodeReplySchema = z.object({
  episodeId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_.:\-]+$/, "letters, digits, _ . : -"),
  ...observationFields,
});
export const simulatorStepReplySchema = z.object({ ...observationFields, valid: z.boolean(), message: z.string().max(500).nullish() });
export type SimulatorEpisodeReply = z.infer<typeof simulatorEpisodeReplySchema>;
export type SimulatorStepReply = z.infer<typeof simulatorStepReplySchema>;

export interface SimulatorOptions {
  baseUrl: string;
  timeoutMs?: number;
  retries?: number;
  /** wait before the second try (ms), doubling before each further one; default 250 */
  firstBackoffMs?: number;
  fetchImpl?: typeof fetch;
}

export interface EpisodeRequest {
  itemId: string;
  assignmentId: string;
  scene: string | null;
  room: string | null;
  initialPose: unknown;
}

const DOWN_MESSAGE =
  "The simulator is not answering right now. Your steps so far are saved: wait a moment and try again. If this keeps happening, tell the research team.";

class RetryableFailure extends Error {}

/** The entries of `YARDSTICK_SIMULATOR_HOSTS`, lower-cased: `host` (any port) or `host:port`. */
export function allowedSimulatorHosts(env: string | undefined = process.env.YARDSTICK_SIMULATOR_HOSTS): string[] {
  return (env ?? "")
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

/** Whether the server may call this simulator URL (its host, or host:port, is on the allow-list). */
export function simulatorHostAllowed(baseUrl: string, allowed: readonly string[] = allowedSimulatorHosts()): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allowed.some((entry) => entry === host || entry === `${host}:${port}`);
}

/** A failure in a few words that name no address (they reach the annotator). */
function describeFailure(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return "timed out";
  if (error instanceof RetryableFailure) return error.message;
  const code = error instanceof Error && error.cause && typeof error.cause === "object" ? (error.cause as { code?: unknown }).code : undefined;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "connection reset";
  return "network error";
}

async function postJson<T>(options: SimulatorOptions, path: string, body: unknown, schema: z.ZodType<T>, what: string): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SIMULATOR_TIMEOUT_MS;
  const retries = options.retries ?? DEFAULT_SIMULATOR_RETRIES;
  const fetchImpl = options.fetchImpl ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, "")}${path}`;
  if (!simulatorHostAllowed(options.baseUrl)) {
    console.warn(`ESI simulator ${url}: its host is not in YARDSTICK_SIMULATOR_HOSTS; not called`);
    throw new AppError("UNAVAILABLE", `${DOWN_MESSAGE} (This study's simulator is not on the server's list of simulator hosts.)`);
  }
  const failures: string[] = [];
  const tryOnce = async (attemptNumber: number): Promise<{ reply: Response; text: string }> => {
    try {
      const reply = await fetchImpl(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        cache: "no-store",
        // a redirect is answered as a refusal below, never followed (it could point anywhere)
        redirect: "manual",
      });
      const text = await reply.text();
      if (reply.status >= 500) throw new RetryableFailure(`HTTP ${reply.status}`);
      return { reply, text };
    } catch (error) {
      failures.push(describeFailure(error));
      console.warn(`ESI simulator ${url}, ${what}, try ${attemptNumber}:`, error instanceof Error ? error.message : error);
      // every failure to get an answer is worth another try (p-retry would give up on a TypeError)
      throw new RetryableFailure(describeFailure(error));
    }
  };
  let answer: { reply: Response; text: string };
  try {
    answer = await pRetry(tryOnce, { retries, minTimeout: options.firstBackoffMs ?? 250, factor: 2, maxTimeout: Infinity, randomize: false });
  } catch {
    // the simulator's address stays on the server: an annotator who knew it could ask it directly
    console.warn(`ESI simulator ${url} is down for the ${what}: ${failures.join("; ")}`);
    throw new AppError("UNAVAILABLE", `${DOWN_MESSAGE} (${what}: ${failures.join("; ")}; ${retries + 1} tries of ${Math.round(timeoutMs / 100) / 10} s.)`);
  }
  const { reply, text } = answer;
  if (reply.status >= 300 && reply.status < 400) {
    console.warn(`ESI simulator ${url}: HTTP ${reply.status} redirect to ${reply.headers.get("location") ?? "(no location)"} for the ${what}; not followed`);
    throw new AppError("UNAVAILABLE", `${DOWN_MESSAGE} (The simulator answered the ${what} with a redirect, which is not followed.)`);
  }
  if (!reply.ok) {
    console.warn(`ESI simulator ${url}: HTTP ${reply.status} to the ${what}: ${text.slice(0, 500)}`);
    throw new AppError("UNAVAILABLE", `${DOWN_MESSAGE} (The simulator refused the ${what}: HTTP ${reply.status}.)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    console.warn(`ESI simulator ${url}: the reply to the ${what} is not JSON: ${text.slice(0, 500)}`);
    throw new AppError("UNAVAILABLE", `${DOWN_MESSAGE} (Its reply to the ${what} is not JSON.)`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      "UNAVAILABLE",
      `${DOWN_MESSAGE} (Its reply to the ${what} is malformed: ${issue ? `${issue.path.join(".") || "(reply)"}: ${issue.message}` : "unreadable"}.)`,
    );
  }
  return parsed.data;
}

export function startSimulatorEpisode(options: SimulatorOptions, request: EpisodeRequest): Promise<SimulatorEpisodeReply> {
  return postJson(options, "/episodes", request, simulatorEpisodeReplySchema, "start of the episode");
}

export function stepSimulatorEpisode(options: SimulatorOptions, episodeId: string, step: { action: string; seq: number }): Promise<SimulatorStepReply> {
  return postJson(options, `/episodes/${encodeURIComponent(episodeId)}/step`, step, simulatorStepReplySchema, `step ${step.seq}`);
}
