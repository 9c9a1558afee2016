import { z } from "zod";

/**
 * A study's settings as the researcher edits them (the Settings tab, PATCH
 * /api/studies/<slug>/settings). Pure: the browser form imports it too. Shares are sent as
 * fractions (0..1), times in seconds; an empty optional setting is null ("no limit", "no gate").
 * Per-kind task settings are checked against each kind's settingsSchema on the server
 * (lib/studies/studies.ts), which knows the study's kinds.
 */

/** null, or "" from an emptied input, means "not set". */
const nothing = z.union([z.null(), z.literal("")]).transform(() => null);

function optionalInt(min: number, max: number, what: string) {
  return z.union([
    nothing,
    z.coerce
      .number({ message: `${what} must be a number` })
      .int(`${what} must be a whole number`)
      .min(min, `${what}: at least ${min}`)
      .max(max, `${what}: at most ${max}`),
  ]);
}

function share(what: string) {
  return z.coerce
    .number({ message: `${what} must be a number` })
    .min(0, `${what}: at least 0%`)
    .max(1, `${what}: at most 100%`);
}

export const tutorialPageSchema = z.object({
  title: z.string().trim().min(1, "a tutorial page needs a title").max(120, "at most 120 characters"),
  body: z.string().trim().min(1, "a tutorial page needs some text").max(20_000, "at most 20,000 characters"),
});
export type TutorialPage = z.infer<typeof tutorialPageSchema>;

/** A condition name: short, as it appears in exports (Assignment.condition). */
export const conditionNameSchema = z
  .string()
  .trim()
  .min(1, "a condition needs a name")
  .max(40, "at most 40 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "letters, digits, - and _, e.g. passive-single");

const httpsUrl = z
  .string()
  .trim()
  .max(2000, "at most 2000 characters")
  .url("not a web address")
  .refine((value) => /^https?:\/\//.test(value), "must start with https:// (or http:// for a local test)");

const completionCodeSchema = z.union([
  nothing,
  z
    .string()
    .trim()
    .min(1)
    .max(60, "at most 60 characters")
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, - and _ only"),
]);

/**
 * The endings other than "completed" (Study.completionCode and completionRedirectUrl), each with
 * its own completion code and redirect: Prolific expects one code per status (completed, failed
 * screening, excluded, timed out, no place left), so that a researcher can approve, return or
 * reject each kind of submission for what it is. Withdrawal and "returned" get no code.
 */
export const ENDINGS = ["failedScreening", "excluded", "timedOut", "full"] as const;
export type EndingName = (typeof ENDINGS)[number];
export const ENDING_LABELS: Record<EndingName, string> = {
  failedScreening: "Failed screening (practice below the pass mark)",
  excluded: "Excluded (failed attention checks)",
  timedOut: "Timed out (session time limit)",
  full: "Study full (no place left)",
};

export const endingSchema = z
  .object({ code: completionCodeSchema.default(null), redirectUrl: z.union([nothing, httpsUrl]).default(null) })
  .superRefine((ending, ctx) => {
    if (ending.redirectUrl !== null && ending.redirectUrl.includes("{code}") && ending.code === null)
      ctx.addIssue({ code: "custom", path: ["code"], message: "the redirect uses {code}: set a code" });
  });
export type Ending = z.output<typeof endingSchema>;

export const endingsSchema = z
  .object(Object.fromEntries(ENDINGS.map((name) => [name, endingSchema.optional()])) as Record<EndingName, z.ZodOptional<typeof endingSchema>>)
  .strict();
export type Endings = Partial<Record<EndingName, Ending>>;

/** The stored endings (Study.endings), read leniently: anything malformed is left out. */
export function endingsOf(value: unknown): Endings {
  const parsed = endingsSchema.safeParse(value ?? {});
  if (!parsed.success) return {};
  const out: Endings = {};
  for (const name of ENDINGS) {
    const ending = parsed.data[name];
    if (ending && (ending.code !== null || ending.redirectUrl !== null)) out[name] = ending;
  }
  return out;
}

const studySettingsFields = {
  title: z.string().trim().min(2, "at least 2 characters").max(120, "at most 120 characters"),
  instructions: z.string().max(50_000, "at most 50,000 characters"),
  overlap: z.coerce.number().int("a whole number").min(1, "at least 1 annotator per item").max(50, "at most 50"),
  confidenceScale: z.enum(["LIKERT_5", "PERCENT"]),
  idleCapSeconds: z.coerce.number().int("a whole number").min(5, "at least 5 seconds").max(3600, "at most an hour"),
  consentMarkdown: z.string().max(50_000, "at most 50,000 characters"),
  tutorialPages: z.array(tutorialPageSchema).max(30, "at most 30 tutorial pages"),
  practicePassMark: z.union([nothing, share("The pass mark")]),
  goldRate: share("The gold rate"),
  goldFailLimit: optionalInt(1, 1000, "Failed gold items"),
  goldFailWindow: optionalInt(1, 1000, "The gold window"),
  itemsPerParticipant: optionalInt(1, 100_000, "Items per participant"),
  itemTimeLimitSeconds: optionalInt(5, 86_400, "The item time limit"),
  sessionTimeLimitSeconds: optionalInt(60, 7 * 86_400, "The session time limit"),
  leaseSeconds: z.coerce
    .number()
    .int("a whole number")
    .min(30, "at least 30 seconds")
    .max(7 * 86_400, "at most 7 days"),
  /** a handed-out item never started (no event) returns to the pool after this (seconds to minutes) */
  firstItemLeaseSeconds: z.coerce.number().int("a whole number").min(15, "at least 15 seconds").max(3_600, "at most 1 hour"),
  completionCode: completionCodeSchema,
  completionRedirectUrl: z.union([nothing, httpsUrl]),
  /** the other endings' codes and redirects (ENDINGS) */
  endings: endingsSchema.default({}).transform((value) => endingsOf(value)),
  /** phones and tablets get a notice instead of the task (lib/client/device.ts) */
  desktopOnly: z.boolean().default(false),
  balanceTag: z.union([nothing, z.string().trim().min(1).max(60, "at most 60 characters")]),
  conditions: z
    .array(conditionNameSchema)
    .max(12, "at most 12 conditions")
    .superRefine((names, ctx) => {
      const seen = new Set<string>();
      names.forEach((name, i) => {
        if (seen.has(name)) ctx.addIssue({ code: "custom", path: [i], message: `the condition "${name}" is listed twice` });
        seen.add(name);
      });
    }),
};

/** The rules between settings (gold windows, redirects and codes, time limits); checked on the merged settings of a partial change. */
function checkStudySettings(input: z.output<z.ZodObject<typeof studySettingsFields>>, ctx: z.RefinementCtx): void {
  if (input.goldFailWindow !== null && input.goldFailLimit === null) {
    ctx.addIssue({ code: "custom", path: ["goldFailLimit"], message: "a window needs a number of failures (e.g. 2 of 5)" });
  }
  if (input.goldFailWindow !== null && input.goldFailLimit !== null && input.goldFailLimit > input.goldFailWindow) {
    ctx.addIssue({
      code: "custom",
      path: ["goldFailWindow"],
      message: `the window (${input.goldFailWindow}) is smaller than the failures that exclude (${input.goldFailLimit})`,
    });
  }
  if (input.goldFailLimit !== null && input.goldRate === 0) {
    ctx.addIssue({ code: "custom", path: ["goldRate"], message: "an exclusion rule needs gold items: set a gold rate above 0%" });
  }
  if (input.completionRedirectUrl !== null && input.completionRedirectUrl.includes("{code}") && input.completionCode === null) {
    ctx.addIssue({ code: "custom", path: ["completionCode"], message: "the redirect uses {code}: set a completion code" });
  }
  if (input.itemTimeLimitSeconds !== null && input.sessionTimeLimitSeconds !== null && input.itemTimeLimitSeconds > input.sessionTimeLimitSeconds) {
    ctx.addIssue({ code: "custom", path: ["itemTimeLimitSeconds"], message: "longer than the whole session's limit" });
  }
}

/**
 * The settings with `taskSettings` checked by `taskSettings`: the API's body schema gives each
 * registered kind's settingsSchema there (lib/studies/settings.ts), which this browser-safe file
 * cannot import.
 */
export function studySettingsSchemaWith<T extends z.ZodType<Record<string, Record<string, unknown>>>>(taskSettings: T) {
  return z.object({ ...studySettingsFields, taskSettings }).superRefine(checkStudySettings);
}

/** The settings; `taskSettings`: kind -> that kind's settings, each checked on the server against the kind's settingsSchema (lib/studies/settings.ts). */
export const studySettingsSchema = studySettingsSchemaWith(z.record(z.string().max(60), z.record(z.string(), z.unknown())));

/**
 * A partial change of the settings (PATCH /api/studies/<slug>/settings): any of the
 * fields, each checked as in the full settings, no other key; the server merges them into the
 * study's current settings and checks the rules between settings on the result
 * (lib/studies/settings.ts updateStudySettings). Without defaults: a field not sent stays as it is.
 */
export function studySettingsPatchSchemaWith<T extends z.ZodType<Record<string, Record<string, unknown>>>>(taskSettings: T) {
  const { endings: _endings, desktopOnly: _desktopOnly, ...rest } = studySettingsFields;
  return z
    .strictObject({
      ...rest,
      endings: endingsSchema.transform((value) => endingsOf(value)),
      desktopOnly: z.boolean(),
      taskSettings: taskSettings.describe("kind -> that kind's settings; a kind sent replaces its settings, the others stay"),
    })
    .partial();
}

export const studySettingsPatchSchema = studySettingsPatchSchemaWith(z.record(z.string().max(60), z.record(z.string(), z.unknown())));
export type StudySettingsPatch = z.output<typeof studySettingsPatchSchema>;
export type StudySettingsInput = z.input<typeof studySettingsSchema>;
export type StudySettings = z.output<typeof studySettingsSchema>;

/** Prolific's completion URL for a code. */
export function prolificCompletionUrl(code: string): string {
  return `https://app.prolific.com/submissions/complete?cc=${encodeURIComponent(code)}`;
}

/** The redirect shown at the end, with `{code}` replaced by the study's completion code. */
export function completionRedirectFor(url: string | null, code: string | null): string | null {
  if (!url) return null;
  return url.includes("{code}") ? url.replaceAll("{code}", encodeURIComponent(code ?? "")) : url;
}

export const STUDY_STATUSES = ["DRAFT", "OPEN", "PAUSED", "CLOSED"] as const;
export type StudyStatusValue = (typeof STUDY_STATUSES)[number];

/** The lifecycle: DRAFT -> OPEN -> PAUSED -> CLOSED, and PAUSED -> OPEN. */
export const STATUS_TRANSITIONS: Record<StudyStatusValue, readonly StudyStatusValue[]> = {
  DRAFT: ["OPEN"],
  OPEN: ["PAUSED", "CLOSED"],
  PAUSED: ["OPEN", "CLOSED"],
  CLOSED: [],
};

export const studyStatusChangeSchema = z.object({ status: z.enum(STUDY_STATUSES) });

/**
 * What the dashboards' intervals generalise over: "people+items" (the people and the items are
 * both samples of larger populations: the default) or "items" (these people are the population).
 * An analysis choice, not part of the work: it stays changeable once answers exist.
 */
export const GENERALISE_OVER_CHOICES = ["people+items", "items"] as const;
export const generaliseOverSchema = z.enum(GENERALISE_OVER_CHOICES);
export const GENERALISE_OVER_LABELS: Record<(typeof GENERALISE_OVER_CHOICES)[number], string> = {
  "people+items": "People and items (both are samples)",
  items: "Items only (these people are the population)",
};

/** PATCH /api/studies/<slug>/analysis: the study's analysis settings. */
export const studyAnalysisChangeSchema = z.strictObject({ generaliseOver: generaliseOverSchema });

/**
 * PATCH /api/studies/<slug>/contact: how participants reach the research team (Study.contactName,
 * contactEmail), named on every page that tells them to write to it. Changeable once the study has
 * answers: it steers nothing of the work. Empty is null (not given).
 */
export const studyContactChangeSchema = z.strictObject({
  contactName: z.union([nothing, z.string().trim().min(1).max(120, "at most 120 characters")]),
  contactEmail: z.union([nothing, z.string().trim().max(254, "at most 254 characters").pipe(z.email("not an email address, e.g. team@lab.example.org"))]),
});
export type StudyContactChange = z.output<typeof studyContactChangeSchema>;

/** The public entry link: create (or replace) its token, or switch it off. */
export const entryLinkChangeSchema = z.object({ action: z.enum(["create", "disable"]) });
